package forecast

import (
	"context"
	"fmt"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"rollscope/model"
	"rollscope/model/argo"
)

// Switch is what a blue/green Rollout's rehearsal did with its Services,
// the moments an operator plans around: whether and when the active
// Service moved, the ReplicaSet it selects at the end (To), and when
// another ReplicaSet (Old) was then scaled to zero. Times are from the
// start of the rehearsal; Old is "" when none was scaled down before the
// rehearsal stopped.
type Switch struct {
	Switched   bool
	Active     time.Duration
	To         string
	ScaledDown time.Duration
	Old        string
	// AutoPromotion and ScaleDownDelay are the Rollout's
	// autoPromotionSeconds and scaleDownDelaySeconds, the waits that
	// set those moments.
	AutoPromotion, ScaleDownDelay time.Duration
}

func (s Switch) String() string {
	var out string
	switch {
	case !s.Switched && s.To == "":
		out = "the active Service selects no ReplicaSet"
	case !s.Switched:
		out = "the active Service stays on " + s.To
	case s.Active < time.Second:
		out = "the active Service switches to " + s.To + " at once"
	default:
		out = fmt.Sprintf("the active Service switches to %s after about %s", s.To, s.Active.Round(time.Second))
		if s.AutoPromotion > 0 {
			out += fmt.Sprintf(" (autoPromotionSeconds %d)", int(s.AutoPromotion.Seconds()))
		}
	}
	if s.Old != "" {
		out += fmt.Sprintf(", %s scales to 0 after about %s", s.Old, s.ScaledDown.Round(time.Second))
		if s.Switched {
			// Only the scale-down after a switch waits scaleDownDelaySeconds
			// (an abort's waits abortScaleDownDelaySeconds).
			out += fmt.Sprintf(" (scaleDownDelaySeconds %d)", int(s.ScaleDownDelay.Seconds()))
		}
	}
	return out
}

// seedServices copies a blue/green Rollout's Services: their selectors
// (the pod-template hash the controller switches) and annotations (which
// Rollout manages them). Nothing else of a Service is read.
func (s *seeded) seedServices(ctx context.Context, c kubernetes.Interface, svcs []*corev1.Service) error {
	for _, svc := range svcs {
		cp := &corev1.Service{ObjectMeta: fresh(svc.ObjectMeta, nil), Spec: corev1.ServiceSpec{
			Selector: copyMap(svc.Spec.Selector), Ports: append([]corev1.ServicePort(nil), svc.Spec.Ports...),
		}}
		got, err := c.CoreV1().Services(svc.Namespace).Create(ctx, cp, metav1.CreateOptions{})
		if err != nil {
			return copyErr("service/"+svc.Name, err)
		}
		s.note(got.ResourceVersion)
	}
	return nil
}

// switches watches a blue/green rehearsal: the active Service's selector
// and the ReplicaSets scaled to zero once it has moved.
type switches struct {
	after      uint64
	start      time.Time
	active     string
	hash       string
	sw         Switch
	bg         bool
	ro         string
	scaledDown map[string]bool
}

func newSwitches(after uint64, st RolloutState) *switches {
	w := &switches{after: after, start: st.Now, ro: st.Rollout.Name, scaledDown: map[string]bool{}}
	bg := st.Rollout.Spec.Strategy.BlueGreen
	if bg == nil {
		return w
	}
	w.bg, w.active = true, bg.ActiveService
	for _, svc := range st.Services {
		if svc.Name == bg.ActiveService {
			w.hash = svc.Spec.Selector[argo.PodTemplateHashLabel]
		}
	}
	for _, rs := range st.ReplicaSets {
		w.scaledDown[rs.Name] = model.SpecReplicas(rs) == 0
	}
	return w
}

func (w *switches) observe(now time.Time, ev watch.Event) {
	if !w.bg || ev.Type == watch.Deleted {
		return
	}
	switch o := ev.Object.(type) {
	case *corev1.Service:
		if rv, err := strconv.ParseUint(o.ResourceVersion, 10, 64); err != nil || rv <= w.after || o.Name != w.active {
			return
		}
		if h := o.Spec.Selector[argo.PodTemplateHashLabel]; h != w.hash {
			w.hash = h
			w.sw.Switched, w.sw.Active = true, now.Sub(w.start)
		}
	case *appsv1.ReplicaSet:
		zero := model.SpecReplicas(o) == 0
		// A ReplicaSet created at zero was not scaled down.
		if was, seen := w.scaledDown[o.Name]; zero && seen && !was && o.Labels[argo.PodTemplateHashLabel] != w.hash {
			w.sw.ScaledDown, w.sw.Old = now.Sub(w.start), o.Name
		}
		w.scaledDown[o.Name] = zero
	}
}

// said is the Switch of a blue/green Rollout ro, nil for a canary.
func (w *switches) said(ro *argo.Rollout) *Switch {
	bg := ro.Spec.Strategy.BlueGreen
	if bg == nil {
		return nil
	}
	sw := w.sw
	if w.hash != "" {
		sw.To = w.ro + "-" + w.hash
	}
	sw.AutoPromotion = time.Duration(bg.AutoPromotionSeconds) * time.Second
	if bg.AutoPromotionEnabled != nil && !*bg.AutoPromotionEnabled {
		sw.AutoPromotion = 0
	}
	sw.ScaleDownDelay = 30 * time.Second
	if bg.ScaleDownDelaySeconds != nil {
		sw.ScaleDownDelay = time.Duration(*bg.ScaleDownDelaySeconds) * time.Second
	}
	return &sw
}
