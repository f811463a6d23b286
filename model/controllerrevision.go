package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/rand"
)

// ControllerRevisions are the history of StatefulSets and DaemonSets, as
// ReplicaSets are a Deployment's: each holds a patch that replaces the pod
// template, and a revision number. The rules here follow upstream's
// pkg/controller/history (history.go) and the patch both controllers build
// (statefulset/stateful_set_utils.go and daemon/update.go getPatch).

const (
	// RevisionHashLabel is on a DaemonSet's revisions and pods (the template
	// hash) and on a StatefulSet's pods (the revision's name).
	RevisionHashLabel = appsv1.ControllerRevisionHashLabelKey
	// StatefulSetRevisionHashLabel is the hash label upstream's history
	// package puts on a StatefulSet's revisions.
	StatefulSetRevisionHashLabel = "controller.kubernetes.io/hash"
	// maxRevisionPrefix is how much of the owner's name a revision name keeps.
	maxRevisionPrefix = 223
)

// TemplatePatch is the data of a revision of a StatefulSet or DaemonSet: its
// spec.template, as JSON, marked to replace the template when applied. Both
// controllers compare revisions by these bytes, so the encoding matters: the
// object's JSON re-encoded from a map, whose keys encoding/json sorts.
func TemplatePatch(obj any) ([]byte, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	spec, ok := raw["spec"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%T has no spec", obj)
	}
	template, ok := spec["template"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%T has no spec.template", obj)
	}
	template["$patch"] = "replace"
	return json.Marshal(map[string]any{"spec": map[string]any{"template": template}})
}

// RevisionHash is history.HashControllerRevision: FNV-32 (not 1a) over the
// data, then the collision count in hex, mapped to the safe alphabet.
func RevisionHash(data []byte, collisionCount *int32) string {
	h := fnv.New32()
	h.Write(data)
	if collisionCount != nil {
		h.Write([]byte(strconv.FormatInt(int64(*collisionCount), 16)))
	}
	return rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
}

// RevisionName is <owner>-<hash>, the owner's name cut so the name stays a
// valid object name.
func RevisionName(owner, hash string) string {
	if len(owner) > maxRevisionPrefix {
		owner = owner[:maxRevisionPrefix]
	}
	return owner + "-" + hash
}

// RevisionTemplate reads the pod template a revision holds.
func RevisionTemplate(cr *appsv1.ControllerRevision) (corev1.PodTemplateSpec, error) {
	var patch struct {
		Spec struct {
			Template corev1.PodTemplateSpec `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(cr.Data.Raw, &patch); err != nil {
		return corev1.PodTemplateSpec{}, fmt.Errorf("controller revision %s holds no pod template: %w", cr.Name, err)
	}
	return patch.Spec.Template, nil
}

// SortRevisions orders revisions oldest first: by revision number, then
// creation time, then name (history.SortControllerRevisions).
func SortRevisions(revs []*appsv1.ControllerRevision) {
	sort.SliceStable(revs, func(i, j int) bool {
		a, b := revs[i], revs[j]
		if a.Revision != b.Revision {
			return a.Revision < b.Revision
		}
		if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
			return a.CreationTimestamp.Before(&b.CreationTimestamp)
		}
		return a.Name < b.Name
	})
}

// NextRevision is one more than the highest revision number of sorted revs,
// or 1.
func NextRevision(sorted []*appsv1.ControllerRevision) int64 {
	if len(sorted) == 0 {
		return 1
	}
	return sorted[len(sorted)-1].Revision + 1
}

// SameRevisionData reports whether two revisions hold the same template
// (history.EqualRevision: their hash labels, being safe-encoded, never parse
// as numbers, so the data decides).
func SameRevisionData(a, b *appsv1.ControllerRevision) bool {
	if a == nil || b == nil {
		return a == b
	}
	return bytes.Equal(a.Data.Raw, b.Data.Raw)
}

// errNoPreviousRevision is kubectl's answer to an undo with only one revision.
var errNoPreviousRevision = errors.New("no last revision to roll back to")

// RevisionToRollBackTo is the revision `kubectl rollout undo --to-revision`
// picks among a StatefulSet's or DaemonSet's revisions: toRevision itself,
// or for 0 the one before the newest.
func RevisionToRollBackTo(revs []*appsv1.ControllerRevision, toRevision int64) (*appsv1.ControllerRevision, error) {
	if toRevision < 0 {
		return nil, fmt.Errorf("unable to find specified revision %d in history", toRevision)
	}
	if toRevision == 0 {
		if len(revs) <= 1 {
			return nil, errNoPreviousRevision
		}
		sorted := append([]*appsv1.ControllerRevision(nil), revs...)
		SortRevisions(sorted)
		return sorted[len(sorted)-2], nil
	}
	for _, r := range revs {
		if r.Revision == toRevision {
			return r, nil
		}
	}
	return nil, fmt.Errorf("unable to find specified revision %d in history", toRevision)
}
