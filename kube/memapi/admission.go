package memapi

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// defaultTolerationSeconds is how long pods stay on a not-ready or
// unreachable node before taint-based eviction, as the DefaultTolerationSeconds
// admission plugin sets it.
const defaultTolerationSeconds = 300

// builtinPriorities are the PriorityClasses every cluster has.
var builtinPriorities = map[string]int32{
	"system-cluster-critical": 2000000000,
	"system-node-critical":    2000001000,
}

// admitPod does what a real cluster's default admission plugins do to a new
// pod, so that pods look the same as on a real cluster: the Priority plugin
// resolves the priority, and DefaultTolerationSeconds adds the not-ready and
// unreachable tolerations.
func admitPod(p *corev1.Pod) error {
	priority, ok := int32(0), true
	if p.Spec.PriorityClassName != "" {
		priority, ok = builtinPriorities[p.Spec.PriorityClassName]
	}
	if !ok {
		return apierrors.NewForbidden(corev1.Resource("pods"), p.Name,
			fmt.Errorf("no PriorityClass with name %v was found", p.Spec.PriorityClassName))
	}
	if p.Spec.Priority != nil && *p.Spec.Priority != priority {
		return apierrors.NewForbidden(corev1.Resource("pods"), p.Name,
			fmt.Errorf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *p.Spec.Priority, priority))
	}
	p.Spec.Priority = &priority
	if p.Spec.PreemptionPolicy == nil {
		p.Spec.PreemptionPolicy = ptrTo(corev1.PreemptLowerPriority)
	}

	for _, key := range []string{corev1.TaintNodeNotReady, corev1.TaintNodeUnreachable} {
		tolerated := false
		for _, t := range p.Spec.Tolerations {
			if (t.Key == key || t.Key == "") && (t.Effect == corev1.TaintEffectNoExecute || t.Effect == "") {
				tolerated = true
			}
		}
		if !tolerated {
			p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{
				Key: key, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute,
				TolerationSeconds: ptrTo[int64](defaultTolerationSeconds),
			})
		}
	}
	return nil
}
