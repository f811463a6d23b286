package perform_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/actions"
	"rollscope/engine/embedded"
	"rollscope/engine/forecast"
	"rollscope/engine/perform"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/kind"
)

// reality is what the cluster did with a deployment after a request: its
// ReplicaSets' scalings, the most pods wanted and the fewest available,
// and how the rollout ended and when.
type reality struct {
	namespace, name string
	watching        bool
	start           time.Time
	spec, avail     map[string]int32
	steps           int
	peak, lowest    int32
	outcome         string
	ended           time.Duration
}

func (r *reality) observe(now time.Time, ev watch.Event) {
	switch o := ev.Object.(type) {
	case *appsv1.ReplicaSet:
		if o.Namespace != r.namespace || ev.Type == watch.Deleted || !ownedBy(o, r.name) {
			return
		}
		n := model.SpecReplicas(o)
		if r.watching && r.outcome == "" && n != r.spec[o.Name] {
			r.steps++
		}
		r.spec[o.Name], r.avail[o.Name] = n, o.Status.AvailableReplicas
		if !r.watching || r.outcome != "" {
			return
		}
		var pods, avail int32
		for name, n := range r.spec {
			pods += n
			avail += r.avail[name]
		}
		r.peak, r.lowest = max(r.peak, pods), min(r.lowest, avail)
	case *appsv1.Deployment:
		if !r.watching || r.outcome != "" || o.Namespace != r.namespace || o.Name != r.name {
			return
		}
		c := model.GetDeploymentCondition(o.Status, appsv1.DeploymentProgressing)
		switch {
		case c != nil && c.Status == corev1.ConditionFalse && c.Reason == model.ReasonProgressDeadlineExceeded && c.LastUpdateTime.After(r.start):
			r.outcome = forecast.DeadlineExceeded
		case model.DeploymentComplete(o, &o.Status):
			r.outcome = forecast.Finished
		default:
			return
		}
		r.ended = now.Sub(r.start)
	}
}

func ownedBy(rs *appsv1.ReplicaSet, deployment string) bool {
	ref := metav1.GetControllerOf(rs)
	return ref != nil && ref.Kind == "Deployment" && ref.Name == deployment
}

// moments are when, in a scenario, to ask for a forecast: before anything
// happens, just after each scripted action (mid-rollout) and well after it
// (finished, or past a progress deadline).
func moments(sc *scenario.Scenario, d *appsv1.Deployment, several bool) []time.Duration {
	out := []time.Duration{20 * time.Second}
	for _, a := range sc.Actions {
		if several && !targets(sc, a, d) {
			continue
		}
		out = append(out, a.At+5*time.Second, a.At+100*time.Second)
	}
	return out
}

// targets reports whether action a is about deployment d. A scenario of
// many deployments (the fleet) rehearses each around its own actions only:
// around every action of thirty workloads it would be thousands of runs.
func targets(sc *scenario.Scenario, a scenario.Action, d *appsv1.Deployment) bool {
	ns := cmp.Or(a.Target.Namespace, sc.Namespace)
	return a.Target.Kind == kind.Deployment && a.Target.Name == d.Name && ns == cmp.Or(d.Namespace, sc.Namespace)
}

// requests are the forecast actions to try on a deployment at a moment:
// abort, undo to the previous revision, and a new image that starts.
func requests(ctx context.Context, cl *embedded.Cluster, d *appsv1.Deployment) []action.Request {
	base := action.Request{Namespace: d.Namespace, Name: d.Name}
	abort, undo, image := base, base, base
	abort.Action, undo.Action, image.Action = action.Abort, action.Undo, action.SetImage
	// The same repository under a new tag: the scenario's image rules
	// treat it like the running image, as the forecast assumes.
	c := d.Spec.Template.Spec.Containers[0]
	repo, _, _ := strings.Cut(c.Image, ":")
	image.Container, image.Image = c.Name, repo+":rehearsed"
	out := []action.Request{abort, image}
	if rss, err := actions.OwnedReplicaSets(ctx, cl.Client, d); err == nil {
		cur, _ := model.Revision(d)
		for _, rs := range rss {
			if rev, err := model.Revision(rs); err == nil && rev < cur && rev > undo.Revision {
				undo.Revision = rev
			}
		}
		if undo.Revision > 0 {
			out = append(out, undo)
		}
	}
	return out
}

// Every forecast the console can show on a built-in scenario — abort, undo
// and set image, before, during and after each scripted rollout, and after
// a progress deadline has passed — is what the embedded cluster then does
// with the same request: the same outcome (finished, or the deadline
// exceeded), the same most pods and fewest available, and about the same
// time. A rollback of a failed rollout finishes: the controller restarts
// the progress clock when it sees progress, and so does the rehearsal.
func TestForecastsOfEveryBuiltinScenarioComeTrue(t *testing.T) {
	ctx := context.Background()
	for _, name := range scenario.Builtins() {
		base, err := scenario.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		var deployments []*appsv1.Deployment
		for _, o := range base.Objects {
			if d, ok := o.(*appsv1.Deployment); ok {
				deployments = append(deployments, d)
			}
		}
		if len(deployments) == 0 {
			continue // ReplicationControllers have no forecast
		}
		if underRace {
			// The same rehearsal and controllers on every deployment: one
			// per scenario shows their races (fleet's thirty took ten
			// minutes under the detector on a busy machine).
			deployments = deployments[:1]
		}
		for _, d := range deployments {
			ats := moments(base, d, len(deployments) > 1)
			if underRace && len(ats) > 3 {
				// fleet's frontend alone has thirty-odd moments: the
				// first, middle and last run the same code paths.
				ats = []time.Duration{ats[0], ats[len(ats)/2], ats[len(ats)-1]}
			}
			for _, at := range ats {
				for _, kind := range []action.Name{action.Abort, action.Undo, action.SetImage} {
					t.Run(fmt.Sprintf("%s/%s/%v/%s", name, d.Name, at, kind), func(t *testing.T) {
						comeTrue(ctx, t, name, d, at, kind)
					})
				}
			}
		}
	}
}

// slowStarts are the moments where the pods observed so far took longer
// to become ready than new ones will: node-upgrade's first pods waited for
// room on nodes still booting, and the forecast — which says it uses their
// median — expects the new ones to be as slow.
var slowStarts = map[string]bool{
	"TestForecastsOfEveryBuiltinScenarioComeTrue/node-upgrade/api/35s/set-image": true,
	// fleet's batch jobs started while the cluster was busy starting
	// thirty workloads and rolling the batch nodes: report-builder's two
	// pods took a median 9 s; its new pods are ready in about 5 s.
	"TestForecastsOfEveryBuiltinScenarioComeTrue/fleet/report-builder/20s/set-image": true,
}

// evicted are the moments where another actor evicts the deployment's pods
// during the rollout: fleet's roll of the batch nodes drains batch-runner's
// pods, so the cluster dips below what the rollout alone would leave
// available (and its pods, like report-builder's, started slowly). The
// rehearsal copies the workload, not the nodes: the forecast cannot know,
// and its sentence says it assumes no drain evicts its pods — which is
// checked here instead of its figures.
var evicted = map[string]bool{
	"TestForecastsOfEveryBuiltinScenarioComeTrue/fleet/batch-runner/20s/set-image": true,
}

func comeTrue(ctx context.Context, t *testing.T, name string, d0 *appsv1.Deployment, at time.Duration, kind action.Name) {
	sc, err := scenario.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	// The scripted actions after the moment would change the rollout
	// under the comparison.
	var keep []scenario.Action
	for _, a := range sc.Actions {
		if a.At < at {
			keep = append(keep, a)
		}
	}
	sc.Actions = keep
	clock := sim.NewClock(epoch)
	obs := &reality{namespace: d0.Namespace, name: d0.Name, spec: map[string]int32{}, avail: map[string]int32{}, lowest: 1 << 30}
	cl, err := embedded.Start(ctx, memapi.New(memapi.Options{Clock: clock, Seed: 1}), clock, sc, embedded.Options{Observers: []sim.Observer{obs.observe}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Runner.Close)
	p := perform.New(perform.Config{Client: cl.Client, Now: clock.Now, Record: true, Rehearsal: rehearsal})
	var f forecast.Forecast
	var skip string
	cl.Runner.At(at, func() {
		d, err := cl.Client.AppsV1().Deployments(d0.Namespace).Get(ctx, d0.Name, metav1.GetOptions{})
		if err != nil {
			t.Error(err)
			return
		}
		var req action.Request
		for _, r := range requests(ctx, cl, d) {
			if r.Action == kind {
				req = r
			}
		}
		if req.Action == "" {
			skip = "no earlier revision to undo to"
			return
		}
		if f, err = p.Rehearse(ctx, req); err != nil {
			if errors.Is(err, action.ErrNothingToDo) || errors.Is(err, forecast.ErrPausedCopy) || errors.Is(err, actions.ErrPaused) {
				skip = err.Error()
				return
			}
			t.Errorf("forecast of %s: %v", req.Summary(), err)
			return
		}
		if evicted[t.Name()] {
			if said, err := p.Forecast(ctx, req); err != nil || !strings.Contains(said, "assumes no drain or node roll evicts its pods") {
				t.Errorf("the forecast %q (%v) does not say it assumes no drain evicts the pods", said, err)
			}
		}
		obs.watching, obs.start = true, clock.Now()
		// The baseline is the ReplicaSets as the forecast read them.
		obs.peak, obs.lowest = 0, 0
		for n, s := range obs.spec {
			obs.peak += s
			obs.lowest += obs.avail[n]
		}
		if _, err := p.Send(ctx, req); err != nil {
			t.Errorf("%s: %v", req.Summary(), err)
		}
	})
	if _, err := cl.Runner.Run(ctx, sim.RunOptions{Until: at + 30*time.Minute, Finished: func() bool { return obs.outcome != "" }}); err != nil {
		t.Fatal(err)
	}
	if skip != "" {
		t.Skip(skip)
	}
	if obs.outcome == "" {
		// Half an hour on, neither finished nor past its deadline: the
		// rollout holds part way (an undo of a guided canary takes the
		// stable revision's annotations, so nothing puts the hold's
		// minReadySeconds back and no pod ever becomes available).
		obs.outcome = forecast.Held
	}
	t.Logf("forecast: %v\nthe cluster: %d steps, peak %d, lowest %d, %s after %v", f, obs.steps, obs.peak, obs.lowest, obs.outcome, obs.ended)
	if f.Outcome != obs.outcome {
		t.Errorf("the forecast said %q; the cluster's rollout ended %q", f.Outcome, obs.outcome)
	}
	if evicted[t.Name()] {
		return
	}
	if f.PeakPods != obs.peak || f.LowestAvailable != obs.lowest {
		t.Errorf("the forecast said at most %d pods, never fewer than %d available; the cluster had %d and %d", f.PeakPods, f.LowestAvailable, obs.peak, obs.lowest)
	}
	if slowStarts[t.Name()] || obs.outcome == forecast.Held {
		// A held rollout has no end to time.
		return
	}
	if d := f.Duration - obs.ended; d < -obs.ended/4-5*time.Second || d > obs.ended/4+5*time.Second {
		t.Errorf("the forecast said about %v; the cluster took %v", f.Duration, obs.ended)
	}
}
