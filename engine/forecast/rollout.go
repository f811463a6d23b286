package forecast

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
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
// their pods, and for blue/green its active and preview Services, whose
// selectors the controller reads and switches.
type RolloutState struct {
	Rollout     *argo.Rollout
	ReplicaSets []*appsv1.ReplicaSet
	Pods        []*corev1.Pod
	Services    []*corev1.Service
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
	return st, readServices(ctx, c, &st)
}

// readServices reads a blue/green Rollout's active and preview Services.
// A missing one is left out: the rehearsal's controller then stops where
// the cluster's does, on the same missing Service.
func readServices(ctx context.Context, c kubernetes.Interface, st *RolloutState) error {
	bg := st.Rollout.Spec.Strategy.BlueGreen
	if bg == nil {
		return nil
	}
	for _, name := range []string{bg.ActiveService, bg.PreviewService} {
		if name == "" {
			continue
		}
		svc, err := c.CoreV1().Services(st.Rollout.Namespace).Get(ctx, name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return fmt.Errorf("cannot read service/%s of rollout/%s: %w", name, st.Rollout.Name, err)
		}
		st.Services = append(st.Services, svc)
	}
	return nil
}

// Unmodelled is the one line a Rollout's forecast is instead when
// rollscope's embedded Argo controller does not run its shape (model/argo's
// Unmodelled): a rehearsal would leave it still and forecast nothing true.
// "" when it runs it.
func Unmodelled(ro *argo.Rollout) string {
	path, what := argo.Unmodelled(ro)
	if path == "" {
		if argo.Analysed(ro) {
			// A rehearsal has no metric series: what the analysis will
			// measure cannot be known, so neither can where it ends.
			return fmt.Sprintf("no forecast: rollout/%s runs an analysis, whose measurements a rehearsal cannot know — the embedded controller runs it, a forecast would not", ro.Name)
		}
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
	// The copy's objects are stamped a second before st.Now, and the change
	// made at st.Now: its pods were created before a restart asked for now,
	// as the cluster's were (Argo restarts the pods older than restartAt).
	r, client := rehearsal(newBackend, st.Now.Add(-copiedBefore))
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
	if err := s.seedServices(ctx, client, st.Services); err != nil {
		return Forecast{}, err
	}
	for _, p := range st.Pods {
		if err := s.seedPod(ctx, client, p, rsUID, st.Now, ready.Ready); err != nil {
			return Forecast{}, err
		}
	}
	if err := s.noteLatest(ctx, client, st.Rollout.Namespace); err != nil {
		return Forecast{}, err
	}
	kubelet.due = s.due
	m := newMeter(s.rv)
	m.start(st.ReplicaSets, st.Rollout.UID)
	r.Observe(m.observe)
	sw := newSwitches(s.rv, st)
	r.Observe(sw.observe)
	t := actions.Target{Namespace: st.Rollout.Namespace, Name: st.Rollout.Name}
	var changeErr error
	changed := false
	r.At(copiedBefore, func() { changeErr, changed = change(ctx, client, t), true })
	before := progressing(st.Rollout)
	end := func() (string, string) { return rolloutOutcome(r, t, before) }
	done := func() bool { o, _ := end(); return changed && o != "" }
	if _, err := r.Run(ctx, sim.RunOptions{Finished: done, Limit: simulationLimit}); err != nil {
		return Forecast{}, fmt.Errorf("cannot forecast: %w", err)
	}
	if changeErr != nil {
		return Forecast{}, changeErr
	}
	f := m.f
	f.Waves = kubelet.waves()
	f.Duration = r.Clock().Now().Sub(st.Now)
	f.Readiness = ready
	if f.Outcome, f.Until = end(); f.Outcome == "" {
		f.Outcome = Held
	}
	f.BlueGreen = sw.said(st.Rollout)
	return f, nil
}

// copiedBefore is how long before the change a Rollout's copy is made.
const copiedBefore = time.Second

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
	want := replicasOf(ro)
	settled := s.Replicas == want && s.AvailableReplicas == want
	outcome, until = stop(ro, settled, before)
	if outcome != "" && inFlight(r, ro) {
		// Where it stops is only where it stops once the ReplicaSets are
		// at their sizes, a restart is done and no scale-down waits out
		// its delay: until then the cluster is still changing.
		return "", ""
	}
	return outcome, until
}

// stop is where Rollout ro, its status observed, stops ("" while it goes
// on): settled says its pods are all there and available.
func stop(ro *argo.Rollout, settled bool, before *argo.RolloutCondition) (outcome, until string) {
	s := ro.Status
	want := replicasOf(ro)
	step, index := argo.CurrentStep(ro)
	bg := ro.Spec.Strategy.BlueGreen
	switch {
	case s.Abort && s.Phase == argo.RolloutPhaseDegraded && settled:
		return Aborted, "is aborted, back on its stable pods (retry to go again)"
	case ro.Spec.Paused:
		return Held, "holds: paused (resume to go on)"
	case s.Phase == argo.RolloutPhasePaused && len(s.PauseConditions) > 0 && step != nil && step.Pause != nil && step.Pause.Duration == nil:
		return Held, fmt.Sprintf("pauses at step %d of %d until promoted", *index+1, len(ro.Spec.Strategy.Canary.Steps))
	case bg != nil && s.Phase == argo.RolloutPhasePaused && bg.AutoPromotionEnabled != nil && !*bg.AutoPromotionEnabled && pausedFor(ro, argo.PauseReasonBlueGreenPause):
		// Without auto-promotion nothing but a promote ends the pause;
		// with autoPromotionSeconds the rehearsal waits it out.
		return Held, "pauses before the active Service switches, until promoted"
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

// pausedFor reports whether r carries a pause condition of reason.
func pausedFor(r *argo.Rollout, reason argo.PauseReason) bool {
	for _, c := range r.Status.PauseConditions {
		if c.Reason == reason {
			return true
		}
	}
	return false
}

// scaleDownDeadline is Argo's annotation on a ReplicaSet that will be
// scaled to zero once its delay (scaleDownDelaySeconds,
// abortScaleDownDelaySeconds) passes.
const scaleDownDeadline = "scale-down-deadline"

// inFlight reports whether the rehearsed Rollout ro still has something
// under way: a ReplicaSet short of its pods or of their availability, one
// waiting to be scaled down, or a restart not yet done.
func inFlight(r *sim.Runner, ro *argo.Rollout) bool {
	if ro.Spec.RestartAt != nil && (ro.Status.RestartedAt == nil || !ro.Status.RestartedAt.Equal(ro.Spec.RestartAt)) {
		return true
	}
	want := map[types.UID]int32{}
	rss, _ := r.Listers().ReplicaSets.ReplicaSets(ro.Namespace).List(labels.Everything())
	for _, rs := range rss {
		if ref := metav1.GetControllerOf(rs); ref == nil || ref.UID != ro.UID {
			continue
		}
		n := model.SpecReplicas(rs)
		if _, waits := rs.Annotations[scaleDownDeadline]; waits && n > 0 {
			return true
		}
		if rs.Status.ObservedGeneration < rs.Generation || rs.Status.Replicas != n || rs.Status.AvailableReplicas != n {
			return true
		}
		want[rs.UID] = n
	}
	// The pods themselves, not only the ReplicaSets' statuses, which lag
	// a deletion their controller has not yet seen.
	pods, _ := r.Listers().Pods.Pods(ro.Namespace).List(labels.Everything())
	for _, p := range pods {
		ref := metav1.GetControllerOf(p)
		if _, ours := want[refUID(ref)]; ours && p.DeletionTimestamp == nil && model.IsPodAvailable(p, ro.Spec.MinReadySeconds, r.Clock().Now()) {
			want[ref.UID]--
		}
	}
	for _, n := range want {
		if n != 0 {
			return true
		}
	}
	return false
}

// replicasOf is ro's spec.replicas, 1 when unset.
func replicasOf(ro *argo.Rollout) int32 {
	if ro.Spec.Replicas != nil {
		return *ro.Spec.Replicas
	}
	return 1
}

func refUID(ref *metav1.OwnerReference) types.UID {
	if ref == nil {
		return ""
	}
	return ref.UID
}
