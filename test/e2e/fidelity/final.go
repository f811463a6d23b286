package fidelity

import (
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

// Final is what the API holds at the end of a run for the scenario's
// Deployment: the fields a trace line does not carry.
type Final struct {
	Conditions     []Condition
	ReplicaSets    []FinalReplicaSet
	CollisionCount *int32
}

// Condition is one Deployment condition, without its times.
type Condition struct{ Type, Status, Reason, Message string }

// FinalReplicaSet is a ReplicaSet of the Deployment at the end of a run.
type FinalReplicaSet struct {
	Name      string
	Hash      string // the pod-template-hash label
	Images    string // the containers' images, comma-separated
	Revision  string // deployment.kubernetes.io/revision
	History   string // deployment.kubernetes.io/revision-history
	Spec      int32
	Available int32
	Template  corev1.PodTemplateSpec
}

// finalOf projects a Deployment and the ReplicaSets it controls.
func finalOf(d *appsv1.Deployment, rss []appsv1.ReplicaSet) Final {
	f := Final{CollisionCount: d.Status.CollisionCount}
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentProgressing || c.Type == appsv1.DeploymentAvailable {
			f.Conditions = append(f.Conditions, Condition{string(c.Type), string(c.Status), c.Reason, c.Message})
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
			Template:  *rs.Spec.Template.DeepCopy(),
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

// templateHash is the hash rollscope computes for a ReplicaSet's template,
// which must be the hash the deployment controller named it by. The
// controller's own label on the template is not part of what it hashed.
func templateHash(t corev1.PodTemplateSpec, collisionCount *int32) string {
	t = *t.DeepCopy()
	delete(t.Labels, appsv1.DefaultDeploymentUniqueLabelKey)
	if len(t.Labels) == 0 {
		t.Labels = nil
	}
	return model.PodTemplateHash(&t, collisionCount)
}

// unpinned takes out of a live run's template the node selector and
// tolerations that `rollscope simulate --kubeconfig` adds to keep the pods
// on the run's own hollow nodes: whatever the scenario's template does not
// have. What is left is the template the embedded run hashed.
func unpinned(t corev1.PodTemplateSpec, scenario *corev1.PodTemplateSpec) corev1.PodTemplateSpec {
	t = *t.DeepCopy()
	for k, v := range t.Spec.NodeSelector {
		if scenario.Spec.NodeSelector[k] != v {
			delete(t.Spec.NodeSelector, k)
		}
	}
	if len(t.Spec.NodeSelector) == 0 && scenario.Spec.NodeSelector == nil {
		t.Spec.NodeSelector = nil
	}
	var kept []corev1.Toleration
	for _, tol := range t.Spec.Tolerations {
		for _, want := range scenario.Spec.Tolerations {
			if tol.MatchToleration(&want) {
				kept = append(kept, tol)
				break
			}
		}
	}
	t.Spec.Tolerations = kept
	return t
}
