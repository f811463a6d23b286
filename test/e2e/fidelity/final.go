package fidelity

import (
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/model"
)

// Final is what the API holds at the end of a run for the scenario's
// Deployment: the fields a trace line does not carry.
type Final struct {
	Conditions  []Condition
	ReplicaSets []FinalReplicaSet
}

// Condition is one Deployment condition, without its times and message.
type Condition struct{ Type, Status, Reason string }

// FinalReplicaSet is a ReplicaSet of the Deployment at the end of a run.
type FinalReplicaSet struct {
	Name      string
	Hash      string // the pod-template-hash label
	Images    string // the containers' images, comma-separated
	Revision  string // deployment.kubernetes.io/revision
	History   string // deployment.kubernetes.io/revision-history
	Spec      int32
	Available int32
}

// finalOf projects a Deployment and the ReplicaSets it controls.
func finalOf(d *appsv1.Deployment, rss []appsv1.ReplicaSet) Final {
	var f Final
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentProgressing || c.Type == appsv1.DeploymentAvailable {
			f.Conditions = append(f.Conditions, Condition{string(c.Type), string(c.Status), c.Reason})
		}
	}
	sort.Slice(f.Conditions, func(i, j int) bool { return f.Conditions[i].Type < f.Conditions[j].Type })
	for i := range rss {
		rs := &rss[i]
		if !controlledBy(rs, d) {
			continue
		}
		images := make([]string, 0, len(rs.Spec.Template.Spec.Containers))
		for _, c := range rs.Spec.Template.Spec.Containers {
			images = append(images, c.Image)
		}
		f.ReplicaSets = append(f.ReplicaSets, FinalReplicaSet{
			Name:      rs.Name,
			Hash:      rs.Labels[appsv1.DefaultDeploymentUniqueLabelKey],
			Images:    strings.Join(images, ","),
			Revision:  rs.Annotations[model.RevisionAnnotation],
			History:   rs.Annotations[model.RevisionHistoryAnnotation],
			Spec:      model.SpecReplicas(rs),
			Available: rs.Status.AvailableReplicas,
		})
	}
	sort.Slice(f.ReplicaSets, func(i, j int) bool { return f.ReplicaSets[i].Name < f.ReplicaSets[j].Name })
	return f
}

func controlledBy(rs *appsv1.ReplicaSet, d *appsv1.Deployment) bool {
	for _, ref := range rs.OwnerReferences {
		if ref.Controller != nil && *ref.Controller && ref.Kind == "Deployment" && ref.Name == d.Name {
			return true
		}
	}
	return false
}
