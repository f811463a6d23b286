package argo

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The actions that change a Rollout's pod template — set image and undo —
// work on the objects as the API serves them (unstructured), as the
// plugin does, so no field rollscope does not model is lost on the way
// back. A Rollout with a workloadRef has its template in the Deployment
// it names, and they change that instead.

// Deployments is where a workloadRef's Deployment is served.
var Deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

// RolloutOf decodes a Rollout served as unstructured.
func RolloutOf(u *unstructured.Unstructured) (*Rollout, error) {
	return decodeAs[Rollout](u, "rollout", "Rollout")
}

// AnalysisRunOf decodes an AnalysisRun served as unstructured.
func AnalysisRunOf(u *unstructured.Unstructured) (*AnalysisRun, error) {
	return decodeAs[AnalysisRun](u, "analysisrun", "AnalysisRun")
}

func decodeAs[T any](u *unstructured.Unstructured, resource, kind string) (*T, error) {
	b, err := u.MarshalJSON()
	if err != nil {
		return nil, err
	}
	r := new(T)
	if err := json.Unmarshal(b, r); err != nil {
		return nil, fmt.Errorf("%s/%s does not read as an Argo %s: %w", resource, u.GetName(), kind, err)
	}
	return r, nil
}

// ImageTarget is the object `kubectl argo rollouts set image` updates: the
// Rollout (ok false), or the Deployment its workloadRef names.
func ImageTarget(ro *unstructured.Unstructured) (deployment string, ok bool, err error) {
	ref, found, err := unstructured.NestedMap(ro.Object, "spec", "workloadRef")
	if err != nil || !found {
		return "", false, err
	}
	name, isString := ref["name"].(string)
	if !isString {
		return "", false, fmt.Errorf("spec.workloadRef.name is not a string: %v", ref["name"])
	}
	return name, true, nil
}

// containerLists are the pod spec's lists set image looks in, in the
// plugin's order.
var containerLists = []string{"initContainers", "containers", "ephemeralContainers"}

// SetImage is o (a Rollout or its workloadRef's Deployment) with the image
// of container — of every container, init and ephemeral ones included, for
// "*" — set to image: the object `kubectl argo rollouts set image` sends
// back whole (an update). A container o lacks is refused, naming the ones
// it has.
func SetImage(o *unstructured.Unstructured, container, image string) (*unstructured.Unstructured, error) {
	out := o.DeepCopy()
	var names []string
	found := false
	for _, list := range containerLists {
		v, ok, err := unstructured.NestedFieldNoCopy(out.Object, "spec", "template", "spec", list)
		if err != nil {
			return nil, err
		}
		items, isList := v.([]any)
		if !ok || !isList {
			continue
		}
		for _, item := range items {
			c, isMap := item.(map[string]any)
			if !isMap {
				continue
			}
			name, _, _ := unstructured.NestedString(c, "name")
			names = append(names, name)
			if name == container || container == "*" {
				c["image"] = image
				found = true
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("%s/%s has no container %q (containers: %s)", strings.ToLower(o.GetKind()), o.GetName(), container, strings.Join(names, ", "))
	}
	return out, nil
}

// ReplicaSetSelector is the label selector the plugin lists a Rollout's
// ReplicaSets with: its spec.selector's matchLabels and matchExpressions.
func ReplicaSetSelector(ro *unstructured.Unstructured) (string, error) {
	sel := &metav1.LabelSelector{}
	if m, found, err := unstructured.NestedMap(ro.Object, "spec", "selector"); err != nil {
		return "", err
	} else if found {
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, sel); err != nil {
			return "", fmt.Errorf("rollout/%s has an unreadable selector: %w", ro.GetName(), err)
		}
	}
	s, err := metav1.LabelSelectorAsSelector(&metav1.LabelSelector{MatchLabels: sel.MatchLabels, MatchExpressions: sel.MatchExpressions})
	if err != nil {
		return "", fmt.Errorf("rollout/%s has an invalid selector: %w", ro.GetName(), err)
	}
	return s.String(), nil
}

// Undo is what `kubectl argo rollouts undo NAME --to-revision=N` sends: a
// JSON patch replacing spec.template with the template of the ReplicaSet
// of revision N, to the Rollout or, with a workloadRef, to the object it
// names.
type Undo struct {
	// Revision is the revision gone back to.
	Revision int64
	// Patch is the JSON patch.
	Patch []byte
	// Ref is the workloadRef the patch goes to; nil: the Rollout.
	Ref *ObjectRef
}

// revisionOf is a ReplicaSet's revision annotation: 0 without one, false
// when it is not a number (the plugin skips such a ReplicaSet).
func revisionOf(rs *appsv1.ReplicaSet) (int64, bool) {
	v, ok := rs.Annotations[RevisionAnnotation]
	if !ok {
		return 0, true
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// UndoTo plans the undo of Rollout ro to toRevision (0: the revision before
// the newest) among rss, the ReplicaSets its selector lists; only those it
// controls count. It says which revisions there are when toRevision is
// none of them, and wraps ErrNoChange in the plugin's words ("skipped
// rollback (current template already matches revision N)") when the
// template already is that revision's, hash label aside.
func UndoTo(ro *unstructured.Unstructured, rss []appsv1.ReplicaSet, toRevision int64) (Undo, error) {
	name := "rollout/" + ro.GetName()
	var to *appsv1.ReplicaSet
	var latest, previous *appsv1.ReplicaSet
	latestRev, previousRev := int64(-1), int64(-1)
	var revisions []int64
	for i := range rss {
		rs := &rss[i]
		if !metav1.IsControlledBy(rs, ro) {
			continue
		}
		v, ok := revisionOf(rs)
		if !ok {
			continue
		}
		revisions = append(revisions, v)
		switch {
		case toRevision > 0:
			if v == toRevision && to == nil {
				to = rs
			}
		case latestRev < v:
			previous, previousRev = latest, latestRev
			latest, latestRev = rs, v
		case previousRev < v:
			previous, previousRev = rs, v
		}
	}
	if toRevision == 0 {
		to = previous
	}
	if to == nil {
		slices.Sort(revisions)
		have := "it has none"
		if len(revisions) > 0 {
			var s []string
			for _, v := range slices.Compact(revisions) {
				s = append(s, strconv.FormatInt(v, 10))
			}
			have = "revisions: " + strings.Join(s, ", ")
		}
		if toRevision > 0 {
			return Undo{}, fmt.Errorf("%s has no revision %d (%s)", name, toRevision, have)
		}
		return Undo{}, fmt.Errorf("%s has no revision before its newest to go back to (%s)", name, have)
	}
	rev, _ := revisionOf(to)
	same, err := sameTemplate(ro, to)
	if err != nil {
		return Undo{}, err
	}
	if same {
		return Undo{}, fmt.Errorf("%s: skipped rollback (current template already matches revision %d): %w", name, toRevision, ErrNoChange)
	}
	tpl := to.Spec.Template.DeepCopy()
	delete(tpl.Labels, PodTemplateHashLabel)
	patch, err := templatePatch(tpl)
	if err != nil {
		return Undo{}, fmt.Errorf("failed restoring revision %d: %w", toRevision, err)
	}
	u := Undo{Revision: rev, Patch: patch}
	if r, err := RolloutOf(ro); err != nil {
		return Undo{}, err
	} else if r.Spec.WorkloadRef != nil {
		switch r.Spec.WorkloadRef.Kind {
		case "Deployment", "ReplicaSet", "PodTemplate":
		default:
			return Undo{}, fmt.Errorf("workload of type %s is not supported", r.Spec.WorkloadRef.Kind)
		}
		u.Ref = r.Spec.WorkloadRef
	}
	return u, nil
}

// templatePatch is the plugin's JSON patch: one replace of /spec/template.
func templatePatch(tpl *corev1.PodTemplateSpec) ([]byte, error) {
	return json.Marshal([]any{map[string]any{"op": "replace", "path": "/spec/template", "value": tpl}})
}

// sameTemplate is the plugin's comparison: the Rollout's template, as
// served, is derived from the ReplicaSet's (fields it leaves unset do not
// count), the hash label removed from both. A Rollout without a template
// of its own (a workloadRef) never matches.
func sameTemplate(ro *unstructured.Unstructured, rs *appsv1.ReplicaSet) (bool, error) {
	roTemplate, found, err := unstructured.NestedMap(ro.Object, "spec", "template")
	if !found || err != nil {
		return false, err
	}
	rsTemplate, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&rs.Spec.Template)
	if err != nil {
		return false, err
	}
	unstructured.RemoveNestedField(roTemplate, "metadata", "labels", PodTemplateHashLabel)
	unstructured.RemoveNestedField(rsTemplate, "metadata", "labels", PodTemplateHashLabel)
	return equality.Semantic.DeepDerivative(roTemplate, rsTemplate), nil
}
