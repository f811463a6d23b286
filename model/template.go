package model

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
)

// EqualIgnoreHash reports whether two pod templates are the same apart from
// the pod-template-hash label, which only the ReplicaSet's copy carries.
func EqualIgnoreHash(a, b *corev1.PodTemplateSpec) bool {
	if a == nil || b == nil {
		return a == b
	}
	return equality.Semantic.DeepEqual(WithoutHash(a), WithoutHash(b))
}

// WithoutHash returns a shallow copy of t whose labels lack the
// pod-template-hash label. It shares everything else with t, so it is only
// for reading; this spares a deep copy on every comparison.
func WithoutHash(t *corev1.PodTemplateSpec) *corev1.PodTemplateSpec {
	c := *t
	if _, ok := c.Labels[PodTemplateHashLabel]; ok {
		c.Labels = make(map[string]string, len(t.Labels)-1)
		for k, v := range t.Labels {
			if k != PodTemplateHashLabel {
				c.Labels[k] = v
			}
		}
	}
	return &c
}

// FindNewReplicaSet returns the ReplicaSet running the deployment's current
// template: the oldest one if several match, nil if none does.
func FindNewReplicaSet(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) *appsv1.ReplicaSet {
	var found *appsv1.ReplicaSet
	for _, rs := range rss {
		if rs == nil || !EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			continue
		}
		if found == nil || olderFirst(rs, found) < 0 {
			found = rs
		}
	}
	return found
}

// FindOldReplicaSets splits off every ReplicaSet but the new one: all of them
// in their given order, and the required ones that still have replicas.
func FindOldReplicaSets(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) (required, all []*appsv1.ReplicaSet) {
	return OldReplicaSetsBesides(FindNewReplicaSet(d, rss), rss)
}

// OldReplicaSetsBesides is FindOldReplicaSets when the new ReplicaSet (nil
// if none) is already known, sparing the template comparisons.
func OldReplicaSetsBesides(newRS *appsv1.ReplicaSet, rss []*appsv1.ReplicaSet) (required, all []*appsv1.ReplicaSet) {
	for _, rs := range rss {
		if rs == nil || (newRS != nil && SameReplicaSet(rs, newRS)) {
			continue
		}
		all = append(all, rs)
		if SpecReplicas(rs) != 0 {
			required = append(required, rs)
		}
	}
	return required, all
}

// SameReplicaSet compares by UID as upstream does; objects that never went
// through an API server have no UID and are compared by name instead.
func SameReplicaSet(a, b *appsv1.ReplicaSet) bool {
	if a.UID == "" && b.UID == "" {
		return a.Namespace == b.Namespace && a.Name == b.Name
	}
	return a.UID == b.UID
}

// TemplateFromReplicaSet is the deployment template a rollback restores: the
// ReplicaSet's template without its pod-template-hash label.
func TemplateFromReplicaSet(rs *appsv1.ReplicaSet) corev1.PodTemplateSpec {
	t := rs.Spec.Template.DeepCopy()
	delete(t.Labels, PodTemplateHashLabel)
	return *t
}
