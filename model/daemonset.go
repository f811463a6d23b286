package model

import (
	"fmt"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// A DaemonSet runs one pod on every node it should run on. The rules follow
// upstream's pkg/controller/daemon/util/daemonset_util.go and the rolling
// update of pkg/controller/daemon/update.go.

const (
	// DaemonSetTemplateGenerationAnnotation is how apps/v1 shows a DaemonSet's
	// template generation; the controller copies it to its pods' label.
	DaemonSetTemplateGenerationAnnotation = "deprecated.daemonset.template.generation"
	// DaemonPodTemplateGenerationLabel is the template generation a daemon pod
	// was made from.
	DaemonPodTemplateGenerationLabel = "pod-template-generation"
)

// DaemonSetTemplateGeneration reads the DaemonSet's template generation;
// nil when it has none.
func DaemonSetTemplateGeneration(ds *appsv1.DaemonSet) (*int64, error) {
	v, ok := ds.Annotations[DaemonSetTemplateGenerationAnnotation]
	if !ok {
		return nil, nil
	}
	g, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// IsDaemonPodUpdated reports whether a daemon pod runs the DaemonSet's
// current template: its hash label matches, or its template generation does.
func IsDaemonPodUpdated(p *corev1.Pod, hash string, generation *int64) bool {
	byGeneration := generation != nil && p.Labels[DaemonPodTemplateGenerationLabel] == fmt.Sprint(*generation)
	byHash := hash != "" && p.Labels[RevisionHashLabel] == hash
	return byHash || byGeneration
}

// AddDaemonPodTolerations adds the tolerations every daemon pod gets, so that
// node problems and cordons do not evict or keep it off its node.
func AddDaemonPodTolerations(spec *corev1.PodSpec) {
	add := func(key string, effect corev1.TaintEffect) {
		t := corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists, Effect: effect}
		for i := range spec.Tolerations {
			if spec.Tolerations[i].MatchToleration(&t) {
				spec.Tolerations[i] = t
				return
			}
		}
		spec.Tolerations = append(spec.Tolerations, t)
	}
	add(corev1.TaintNodeNotReady, corev1.TaintEffectNoExecute)
	add(corev1.TaintNodeUnreachable, corev1.TaintEffectNoExecute)
	add(corev1.TaintNodeDiskPressure, corev1.TaintEffectNoSchedule)
	add(corev1.TaintNodeMemoryPressure, corev1.TaintEffectNoSchedule)
	add(corev1.TaintNodePIDPressure, corev1.TaintEffectNoSchedule)
	add(corev1.TaintNodeUnschedulable, corev1.TaintEffectNoSchedule)
	if spec.HostNetwork {
		add(corev1.TaintNodeNetworkUnavailable, corev1.TaintEffectNoSchedule)
	}
}

// DaemonPodAffinity pins a daemon pod to its node by a required node affinity
// on metadata.name, keeping the template's own label expressions, so that the
// default scheduler binds it there.
func DaemonPodAffinity(a *corev1.Affinity, node string) *corev1.Affinity {
	req := corev1.NodeSelectorRequirement{Key: metav1.ObjectNameField, Operator: corev1.NodeSelectorOpIn, Values: []string{node}}
	pinned := &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{req}}}}
	if a == nil {
		return &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: pinned}}
	}
	a = a.DeepCopy()
	if a.NodeAffinity == nil {
		a.NodeAffinity = &corev1.NodeAffinity{}
	}
	old := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	if old == nil || len(old.NodeSelectorTerms) == 0 {
		a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = pinned
		return a
	}
	terms := make([]corev1.NodeSelectorTerm, 0, len(old.NodeSelectorTerms))
	for _, t := range old.NodeSelectorTerms {
		terms = append(terms, corev1.NodeSelectorTerm{MatchExpressions: t.MatchExpressions, MatchFields: []corev1.NodeSelectorRequirement{req}})
	}
	a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{NodeSelectorTerms: terms}
	return a
}

// DaemonPodNode is the node a daemon pod is for: its spec.nodeName once
// bound, before that the node its affinity pins it to; "" when neither.
func DaemonPodNode(p *corev1.Pod) string {
	if p.Spec.NodeName != "" {
		return p.Spec.NodeName
	}
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, f := range t.MatchFields {
			if f.Key == metav1.ObjectNameField && f.Operator == corev1.NodeSelectorOpIn && len(f.Values) == 1 {
				return f.Values[0]
			}
		}
	}
	return ""
}

// DaemonSetBudget is how many extra pods and how many nodes without an
// available daemon pod a DaemonSet's rolling update allows, over the nodes
// it should run on (updatedDesiredNodeCounts): both rounded up, and when both
// come to zero on a non-empty set, one unavailable.
func DaemonSetBudget(ds *appsv1.DaemonSet, desired int) (surge, unavailable int, err error) {
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Spec.UpdateStrategy.Type == appsv1.RollingUpdateDaemonSetStrategyType && ru != nil {
		if ru.MaxSurge != nil {
			if surge, err = intstr.GetScaledValueFromIntOrPercent(ru.MaxSurge, desired, true); err != nil {
				return 0, 0, fmt.Errorf("invalid value for MaxSurge: %w", err)
			}
		}
		if ru.MaxUnavailable != nil {
			if unavailable, err = intstr.GetScaledValueFromIntOrPercent(ru.MaxUnavailable, desired, true); err != nil {
				return 0, 0, fmt.Errorf("invalid value for MaxUnavailable: %w", err)
			}
		}
	}
	if desired > 0 && surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return surge, unavailable, nil
}

// DaemonSetAllowsSurge reports whether the rolling update may run a new pod
// beside an old one on a node (AllowsSurge: a surge of one node or more).
func DaemonSetAllowsSurge(ds *appsv1.DaemonSet) bool {
	surge, _, err := DaemonSetBudget(ds, 1)
	return err == nil && surge != 0
}

// DaemonNode is one node as the rolling update sees it: whether the
// DaemonSet should run there, and the daemon pods that are for it.
type DaemonNode struct {
	Name      string
	ShouldRun bool
	Pods      []*corev1.Pod
}

// DaemonRollStep is what one pass of the rolling update does: the pods it
// deletes and the nodes it creates a new pod on.
type DaemonRollStep struct {
	Delete   []string
	CreateOn []string
}

// updatedAndOld finds the one current and the one old pod on a node,
// ignoring pods being deleted; false when there are more (findUpdatedPodsOnNode).
func updatedAndOld(pods []*corev1.Pod, hash string, generation *int64) (updated, old *corev1.Pod, ok bool) {
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if IsDaemonPodUpdated(p, hash, generation) {
			if updated != nil {
				return nil, nil, false
			}
			updated = p
		} else {
			if old != nil {
				return nil, nil, false
			}
			old = p
		}
	}
	return updated, old, true
}

// DaemonSetRollingUpdate is one pass of a DaemonSet's rolling update
// (rollingUpdate in update.go). Without surge it deletes old pods, every
// unavailable one and as many available ones as maxUnavailable leaves room
// for, and lets the next pass create their replacements. With surge it
// creates a new pod beside an old one on up to maxSurge nodes (and at once
// where the old pod is unavailable) and deletes the old pod once the new one
// is available. nodes must hold every node the DaemonSet should run on or has
// pods on, in the order to consider them (rollscope takes node-name order,
// where upstream walks a map).
func DaemonSetRollingUpdate(ds *appsv1.DaemonSet, nodes []DaemonNode, hash string, maxSurge, maxUnavailable, desired int, now time.Time) DaemonRollStep {
	generation, err := DaemonSetTemplateGeneration(ds)
	if err != nil {
		generation = nil
	}
	mrs := ds.Spec.MinReadySeconds
	available := func(p *corev1.Pod) bool { return IsPodAvailable(p, mrs, now) }
	if maxSurge == 0 {
		unavailable := 0
		var replace, candidates []string
		for _, n := range nodes {
			updated, old, ok := updatedAndOld(n.Pods, hash, generation)
			switch {
			case !ok:
				unavailable++
			case (old == nil && updated == nil) || (old != nil && updated != nil):
				unavailable++
			case updated != nil:
				if !available(updated) {
					unavailable++
				}
			case !available(old):
				replace = append(replace, old.Name)
				unavailable++
			case unavailable >= maxUnavailable:
			default:
				candidates = append(candidates, old.Name)
			}
		}
		room := min(max(maxUnavailable-unavailable, 0), len(candidates))
		return DaemonRollStep{Delete: append(replace, candidates[:room]...)}
	}

	var del, shouldNotRun, candidates, allowed []string
	surged, availableNodes := 0, 0
	for _, n := range nodes {
		updated, old, ok := updatedAndOld(n.Pods, hash, generation)
		if !ok {
			surged++
			continue
		}
		if old != nil {
			if available(old) {
				availableNodes++
			}
		} else if updated != nil && available(updated) {
			availableNodes++
		}
		switch {
		case old == nil:
		case updated == nil:
			switch {
			case !available(old):
				if !n.ShouldRun {
					del = append(del, old.Name)
					continue
				}
				allowed = append(allowed, n.Name)
			default:
				if !n.ShouldRun {
					shouldNotRun = append(shouldNotRun, old.Name)
					continue
				}
				if surged >= maxSurge {
					continue
				}
				candidates = append(candidates, n.Name)
			}
		default:
			if !available(updated) {
				surged++
				continue
			}
			del = append(del, old.Name)
		}
	}
	// With surge the owner expects every node served: a pod on a node the
	// set no longer wants goes only once another has become available.
	if deletable := min(availableNodes-desired, len(shouldNotRun)); deletable > 0 {
		del = append(del, shouldNotRun[:deletable]...)
	}
	room := min(max(maxSurge-surged, 0), len(candidates))
	return DaemonRollStep{Delete: del, CreateOn: append(allowed, candidates[:room]...)}
}

// DaemonSetRolloutStatus is `kubectl rollout status` for a DaemonSet: the
// sentence kubectl prints, whether it is done, or kubectl's error.
func DaemonSetRolloutStatus(ds *appsv1.DaemonSet) (message string, done bool, err error) {
	if ds.Spec.UpdateStrategy.Type != appsv1.RollingUpdateDaemonSetStrategyType {
		return "", true, fmt.Errorf("rollout status is only available for %s strategy type", appsv1.RollingUpdateStatefulSetStrategyType)
	}
	s := ds.Status
	if ds.Generation > s.ObservedGeneration {
		return "Waiting for daemon set spec update to be observed...\n", false, nil
	}
	if s.UpdatedNumberScheduled < s.DesiredNumberScheduled {
		return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d out of %d new pods have been updated...\n",
			ds.Name, s.UpdatedNumberScheduled, s.DesiredNumberScheduled), false, nil
	}
	if s.NumberAvailable < s.DesiredNumberScheduled {
		return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d of %d updated pods are available...\n",
			ds.Name, s.NumberAvailable, s.DesiredNumberScheduled), false, nil
	}
	return fmt.Sprintf("daemon set %q successfully rolled out\n", ds.Name), true, nil
}
