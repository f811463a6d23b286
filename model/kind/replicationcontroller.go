package kind

import (
	"errors"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"

	"rollscope/model"
	"rollscope/model/manifest"
)

// A ReplicationController as the registry reads it: kubectl has no
// status viewer for it, and its rolling update is kubectl's.
type replicationController struct{ *corev1.ReplicationController }

func (w replicationController) Check() *manifest.Problem {
	rc := w.ReplicationController
	what := fmt.Sprintf("ReplicationController %q", rc.Name)
	if p := manifest.First(
		manifest.Meta(&rc.ObjectMeta, "ReplicationController", validation.IsDNS1123Subdomain),
		manifest.Replicas(rc.Spec.Replicas, what),
		manifest.NonNegative(rc.Spec.MinReadySeconds, "spec.minReadySeconds", what),
	); p != nil {
		return p
	}
	if rc.Spec.Template == nil {
		return manifest.Problemf("spec", "%s has no spec.template (add the pod template it runs)", what)
	}
	// An empty selector defaults to the template's labels, as the API server does.
	sel := rc.Spec.Selector
	if len(sel) == 0 {
		sel = rc.Spec.Template.Labels
	}
	if len(sel) == 0 {
		return manifest.Problemf("spec", "%s has neither spec.selector nor template labels (label the template, for example app: NAME)", what)
	}
	if !labels.SelectorFromSet(sel).Matches(labels.Set(rc.Spec.Template.Labels)) {
		return manifest.Problemf("spec.template.metadata.labels", "%s: template labels %s do not match spec.selector %s (give the template every label of the selector)",
			what, manifest.LabelText(rc.Spec.Template.Labels), manifest.LabelText(sel))
	}
	return manifest.PodSpec(&rc.Spec.Template.Spec, "spec.template.spec", what)
}

func (w replicationController) Copy(m metav1.ObjectMeta) Workload {
	return replicationController{&corev1.ReplicationController{ObjectMeta: m, Spec: *w.Spec.DeepCopy()}}
}

func (w replicationController) Figures() [4]int64 {
	s := w.Status
	return [4]int64{int64(model.RCReplicas(w.ReplicationController)), int64(s.Replicas), int64(s.ReadyReplicas), int64(s.AvailableReplicas)}
}

// TraceLine is a ReplicationController's line as a ReplicaSet's is
// written, with no owner: it is a top-level workload. It counts no
// up-to-date pods.
func (w replicationController) TraceLine() TraceLine {
	spec, st := model.RCReplicas(w.ReplicationController), w.Status
	revision, err := strconv.ParseInt(w.Annotations[model.RevisionAnnotation], 10, 64)
	if err != nil {
		revision = 0
	}
	return TraceLine{
		Counts: [5]int32{spec, st.Replicas, st.ReadyReplicas, st.AvailableReplicas}, Counted: 4,
		Fields: traceFields(textField("owner", ""), TraceField{Name: "revision", Number: revision},
			countField("spec", spec), countField("replicas", st.Replicas), countField("ready", st.ReadyReplicas), countField("available", st.AvailableReplicas)),
	}
}

// Settled: the controller has seen the latest spec and runs as many pods as
// it asks for, and it takes part in no rolling update (it is not done until
// the update is).
func (w replicationController) Settled() bool {
	rc := w.ReplicationController
	return rc.Status.ObservedGeneration >= rc.Generation && rc.Status.Replicas == model.RCReplicas(rc) && !model.RCUpdating(rc)
}
func (w replicationController) MinReadySeconds() int32 { return w.Spec.MinReadySeconds }

// OnDelete: a ReplicationController has no update strategy; a new template
// reaches only the pods it makes in place of deleted ones.
func (replicationController) OnDelete() bool { return true }

// Surge is 0: a ReplicationController's template reaches only the pods
// made after it (a rolling update's surge is its own plan's).
func (replicationController) Surge() int32 { return 0 }

func (w replicationController) At(size int32) Workload {
	rc := *w.ReplicationController
	rc.Spec.Replicas = &size
	return replicationController{&rc}
}

func (replicationController) Kind() Kind                          { return ReplicationController }
func (w replicationController) Template() *corev1.PodTemplateSpec { return w.Spec.Template }
func (w replicationController) Selector() *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: w.Spec.Selector}
}
func (w replicationController) Replicas() (int32, bool)             { return specReplicas(w.Spec.Replicas) }
func (w replicationController) Object() any                         { return w.ReplicationController }
func (w replicationController) Revisions() (current, update string) { return "", "" }

// RolloutStatus is kubectl's answer: it has no status viewer for
// ReplicationControllers.
func (w replicationController) RolloutStatus() (string, bool, error) {
	return "", false, errNoStatusViewer
}

// errNoStatusViewer is kubectl's `rollout status` error for a kind it has no
// status viewer for.
var errNoStatusViewer = errors.New("no status viewer has been implemented for ReplicationController")
