package forecast

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/controllers"
	"rollscope/engine/replicaset"
	"rollscope/engine/sim"
	"rollscope/kube/objects"
	"rollscope/model"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// RolloutState is an Argo Rollout as observed on the cluster, the starting
// point of its forecast: the Rollout, the ReplicaSets it controls and
// their pods.
type RolloutState struct {
	Rollout     *argo.Rollout
	ReplicaSets []*appsv1.ReplicaSet
	Pods        []*corev1.Pod
	// Now is when it was observed: the forecast's clock starts there.
	Now time.Time
}

// ReadRollout reads Rollout namespace/name as its forecast starts from,
// through the connection's own client (the embedded cluster's or a live
// one's): the Rollout, the ReplicaSets it controls and their pods.
func ReadRollout(ctx context.Context, c kubernetes.Interface, namespace, name string, now time.Time) (RolloutState, error) {
	st := RolloutState{Now: now}
	row, _ := objects.For(kind.Rollout)
	w, err := row.Get(ctx, c, namespace, name)
	if err != nil {
		return st, fmt.Errorf("cannot read rollout/%s: %w", name, err)
	}
	ro, ok := w.Object().(*argo.Rollout)
	if !ok || ro.Spec.Selector == nil {
		return st, fmt.Errorf("cannot forecast rollout/%s: it has no selector", name)
	}
	st.Rollout = ro
	sel, err := metav1.LabelSelectorAsSelector(ro.Spec.Selector)
	if err != nil {
		return st, fmt.Errorf("rollout/%s has an invalid selector: %w", name, err)
	}
	rss, err := c.AppsV1().ReplicaSets(namespace).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return st, fmt.Errorf("cannot list the ReplicaSets of rollout/%s: %w", name, err)
	}
	owned := map[types.UID]bool{}
	for i := range rss.Items {
		if ref := metav1.GetControllerOf(&rss.Items[i]); ref != nil && ref.UID == ro.UID {
			st.ReplicaSets = append(st.ReplicaSets, &rss.Items[i])
			owned[rss.Items[i].UID] = true
		}
	}
	pods, err := c.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return st, fmt.Errorf("cannot list the pods of rollout/%s: %w", name, err)
	}
	for i := range pods.Items {
		if ref := metav1.GetControllerOf(&pods.Items[i]); ref != nil && owned[ref.UID] {
			st.Pods = append(st.Pods, &pods.Items[i])
		}
	}
	return st, nil
}

// Unmodelled is the one line a Rollout's forecast is instead when
// rollscope's embedded Argo controller does not run its shape (model/argo's
// Unmodelled): a rehearsal would leave it still and forecast nothing true.
// "" when it runs it.
func Unmodelled(ro *argo.Rollout) string {
	if ro.Spec.Strategy.BlueGreen != nil {
		// The embedded controller runs it, but a rehearsal copies no
		// Services, which blue/green switches.
		return fmt.Sprintf("no forecast: rollout/%s is blue/green, whose Services a rehearsal does not copy yet — the embedded controller runs it, a forecast would not", ro.Name)
	}
	path, what := argo.Unmodelled(ro)
	if path == "" {
		return ""
	}
	return fmt.Sprintf("no forecast: rollout/%s has %s (%s), which rollscope's embedded Argo controller does not run — it runs %s", ro.Name, what, path, argo.Modelled)
}

// SimulateRollout forecasts change on an Argo Rollout by doing it, as
// Simulate does for a deployment: it copies st into a fresh API from
// newBackend, applies change there and runs the embedded Argo Rollouts and
// ReplicaSet controllers at full speed on a virtual clock from st.Now, pods
// becoming ready as fast as ready says, until the Rollout is Healthy on its
// new pods, waits at a pause that only a promote (or a resume) ends, is
// back on its stable pods after an abort, or passes its progress
// deadline. Nothing is sent to the cluster st was read from.
func SimulateRollout(ctx context.Context, newBackend NewBackend, st RolloutState, ready Readiness, change Change) (Forecast, error) {
	if st.Rollout == nil {
		return Forecast{}, errors.New("cannot forecast: no rollout given")
	}
	if s := Unmodelled(st.Rollout); s != "" {
		return Forecast{}, errors.New(s)
	}
	r, client := rehearsal(newBackend, st.Now)
	defer r.Close()
	r.Add(replicaset.NewReplicaSet(quietEnv(r, "replicaset-controller")))
	w, _ := controllers.For(kind.Rollout)
	r.Add(w.New(quietEnv(r, w.Name)))
	kubelet := newReadiness(r, ready)

	w0, _ := kind.Of(st.Rollout)
	s := seeded{due: map[string]time.Time{}}
	if err := copyNamespace(ctx, client, st.Rollout.Namespace); err != nil {
		return Forecast{}, err
	}
	owner, err := copyWorkload(ctx, &s, client, w0)
	if err != nil {
		return Forecast{}, err
	}
	rsUID, err := s.seedReplicaSets(ctx, client, st.ReplicaSets, st.Rollout.UID, owner)
	if err != nil {
		return Forecast{}, err
	}
	for _, p := range st.Pods {
		if err := s.seedPod(ctx, client, p, rsUID, st.Now, ready.Ready); err != nil {
			return Forecast{}, err
		}
	}
	kubelet.due = s.due
	m := newMeter(s.rv)
	m.start(st.ReplicaSets, st.Rollout.UID)
	r.Observe(m.observe)
	t := actions.Target{Namespace: st.Rollout.Namespace, Name: st.Rollout.Name}
	if err := change(ctx, client, t); err != nil {
		return Forecast{}, err
	}
	before := progressing(st.Rollout)
	end := func() (string, string) { return rolloutOutcome(r, t, before) }
	done := func() bool { o, _ := end(); return o != "" }
	if _, err := r.Run(ctx, sim.RunOptions{Finished: done, Limit: simulationLimit}); err != nil {
		return Forecast{}, fmt.Errorf("cannot forecast: %w", err)
	}
	f := m.f
	f.Waves = kubelet.waves()
	f.Duration = r.Clock().Now().Sub(st.Now)
	f.Readiness = ready
	if f.Outcome, f.Until = end(); f.Outcome == "" {
		f.Outcome = Held
	}
	return f, nil
}

// Aborted: an aborted Rollout is back on its stable pods.
const Aborted = "aborted"

// progressing is r's Progressing condition, nil if none.
func progressing(r *argo.Rollout) *argo.RolloutCondition {
	for i := range r.Status.Conditions {
		if c := r.Status.Conditions[i]; c.Type == argo.RolloutProgressing {
			return &c
		}
	}
	return nil
}

// rolloutOutcome is how the rehearsed Rollout t ended and, for one that
// stops short of its new pods, where ("" while it goes on). A status the
// controller has not yet written since the change counts for nothing:
// the generation must be observed, and a deadline must be a new one, not
// the one the Rollout had exceeded before (before).
func rolloutOutcome(r *sim.Runner, t actions.Target, before *argo.RolloutCondition) (outcome, until string) {
	w, ok := getWorkload(r.Listers(), kind.Rollout, t)
	if !ok {
		return "", ""
	}
	ro := w.Object().(*argo.Rollout)
	s := ro.Status
	if s.ObservedGeneration != strconv.FormatInt(ro.Generation, 10) {
		return "", ""
	}
	want := int32(1)
	if ro.Spec.Replicas != nil {
		want = *ro.Spec.Replicas
	}
	settled := s.Replicas == want && s.AvailableReplicas == want
	step, index := argo.CurrentStep(ro)
	switch {
	case s.Abort && s.Phase == argo.RolloutPhaseDegraded && settled:
		return Aborted, "is aborted, back on its stable pods (retry to go again)"
	case ro.Spec.Paused:
		return Held, "holds: paused (resume to go on)"
	case s.Phase == argo.RolloutPhasePaused && len(s.PauseConditions) > 0 && step != nil && step.Pause != nil && step.Pause.Duration == nil:
		return Held, fmt.Sprintf("pauses at step %d of %d until promoted", *index+1, len(ro.Spec.Strategy.Canary.Steps))
	case s.Phase == argo.RolloutPhaseHealthy && settled && s.UpdatedReplicas == want && argo.FullyPromoted(ro):
		return Finished, ""
	case s.Phase == argo.RolloutPhaseDegraded && !s.Abort:
		if c := progressing(ro); c != nil && c.Reason == model.ReasonProgressDeadlineExceeded &&
			(before == nil || !c.LastUpdateTime.Equal(&before.LastUpdateTime)) {
			return DeadlineExceeded, ""
		}
	}
	return "", ""
}
