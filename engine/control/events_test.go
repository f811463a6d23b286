package control

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
	testingclock "k8s.io/utils/clock/testing"
)

// upstreamRecord is client-go's broadcaster writing one event to its sink
// (recordToSink and recordEvent, without the retries): the correlator with
// its own spam filter, then a patch of the event it repeats or a creation.
func upstreamRecord(client *fake.Clientset, c *record.EventCorrelator, ev *corev1.Event) {
	result, err := c.EventCorrelate(ev)
	if err != nil || result.Skip {
		return
	}
	ctx := context.Background()
	events := client.CoreV1().Events(result.Event.Namespace)
	var stored *corev1.Event
	update := result.Event.Count > 1
	if update {
		stored, err = events.Patch(ctx, result.Event.Name, types.StrategicMergePatchType, result.Patch, metav1.PatchOptions{})
	}
	if !update || apierrors.IsNotFound(err) {
		result.Event.ResourceVersion = ""
		stored, err = events.Create(ctx, result.Event, metav1.CreateOptions{})
	}
	if err == nil {
		c.UpdateState(stored)
	}
}

// writes is what a client was asked to write, one line per request.
func writes(actions []clienttesting.Action) []string {
	var out []string
	for _, a := range actions {
		switch a := a.(type) {
		case clienttesting.CreateAction:
			ev := a.GetObject().(*corev1.Event)
			out = append(out, fmt.Sprintf("create %s count=%d %s: %s", ev.Name, ev.Count, ev.Reason, ev.Message))
		case clienttesting.PatchAction:
			out = append(out, fmt.Sprintf("patch %s %s", a.GetName(), a.GetPatch()))
		}
	}
	return out
}

// The recorder runs the spam filter before the correlator and opens the
// correlator's own filter wide (see send): over a stream that aggregates
// similar events, bumps repeats, evicts from the caches (more objects than
// their 4096 entries) and drops a hot object's events, it writes what
// client-go's broadcaster with its defaults writes, request by request, as
// long as an object's events stop once one is dropped: upstream's
// correlator still aggregates and counts the dropped ones, the recorder does
// not.
func TestRecorderWritesWhatClientGoWrites(t *testing.T) {
	clock := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	ours, theirs := fake.NewSimpleClientset(), fake.NewSimpleClientset()
	r := &APIRecorder{Client: ours, Clock: clock, Component: "test-controller"}
	upstream := record.NewEventCorrelatorWithOptions(record.CorrelatorOptions{Clock: clock})

	rnd := rand.New(rand.NewSource(1))
	pod := func(i int) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("p%d", i), UID: types.UID(fmt.Sprintf("uid-%d", i))}}
	}
	hot := []*corev1.Pod{pod(-1), pod(-2)}
	dropped := map[string]bool{}
	for i := range 12000 {
		if rnd.Intn(50) == 0 {
			clock.Step(time.Duration(rnd.Intn(120)) * time.Second)
		}
		var (
			obj     *corev1.Pod
			typ     = corev1.EventTypeNormal
			reason  = "Scheduled"
			message string
		)
		switch rnd.Intn(4) {
		case 0: // hot objects, rate-limited: one aggregated, one bumped
			obj, typ, reason = hot[rnd.Intn(len(hot))], corev1.EventTypeWarning, "BackOff"
			if rnd.Intn(4) == 0 {
				// A burst of each type: the spam filter keys on it.
				typ, reason = corev1.EventTypeNormal, "Pulling"
			}
			// The aggregator forgets a random one of ten messages (a set's
			// PopAny), so only messages never seen before, or fewer than
			// ten, aggregate the same way twice.
			message = fmt.Sprintf("back-off %d", i)
			if obj == hot[1] {
				message = fmt.Sprintf("back-off %d", rnd.Intn(5))
			}
		case 1: // repeats among few objects, bumped counts
			obj, reason, message = pod(rnd.Intn(40)), "Pulled", "pulled"
		default: // one event each for many objects, evicting from the caches
			obj, message = pod(i), fmt.Sprintf("assigned p%d", i)
		}
		key := obj.Name + "|" + typ // the spam filter's
		if dropped[key] {
			continue // upstream correlates the dropped ones too; see above
		}
		ev := r.event(obj, typ, reason, "%s", message)
		if ev == nil {
			// Dropped before it was built: upstream, given the same event,
			// must send nothing either, which the writes compared below say.
			now := metav1.NewTime(clock.Now())
			upstreamRecord(theirs, upstream, &corev1.Event{
				ObjectMeta:     metav1.ObjectMeta{Name: fmt.Sprintf("dropped-%d", i), Namespace: obj.Namespace},
				InvolvedObject: corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: obj.Namespace, Name: obj.Name, UID: obj.UID},
				Reason:         reason, Message: message, Type: typ, Source: corev1.EventSource{Component: r.Component},
				FirstTimestamp: now, LastTimestamp: now, Count: 1,
			})
			dropped[key] = true
			continue
		}
		upstreamRecord(theirs, upstream, ev.DeepCopy())
		r.send(ev)
	}
	got, want := writes(ours.Actions()), writes(theirs.Actions())
	if !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("request %d of %d (client-go sent %d):\n got %s\nwant %s", i, len(got), len(want), got[i], want[i])
			}
		}
		t.Fatalf("the recorder sent %d requests, client-go %d", len(got), len(want))
	}
	var creates, patches int
	for _, w := range got {
		if strings.HasPrefix(w, "create") {
			creates++
		} else {
			patches++
		}
	}
	if len(dropped) == 0 || patches == 0 || !slices.ContainsFunc(got, func(w string) bool { return strings.Contains(w, "combined from similar events") }) {
		t.Errorf("the stream tested no drop (%d), no repeat (%d patches) or no aggregation; it proves nothing", len(dropped), patches)
	}
	t.Logf("%d creations, %d patches, %d dropped keys", creates, patches, len(dropped))
}

// Event names and messages are what fmt wrote before they were built by
// hand: names are part of the traces and of what a user sees in kubectl.
func TestEventNamesAndMessagesAreFmts(t *testing.T) {
	for _, c := range []struct {
		object string
		nanos  int64
		n      uint64
	}{
		{"web-7f9c-abcde", 1767225600123456789, 1},
		{"web", 0, 0xffff},
		{"x", -42, 0x12345},
		{strings.Repeat("long-name-", 20), 1, 0xabc},
	} {
		if got, want := eventName(c.object, c.nanos, c.n), fmt.Sprintf("%s.%x%04x", c.object, c.nanos, c.n&0xffff); got != want {
			t.Errorf("eventName(%q, %d, %d) = %q, want %q", c.object, c.nanos, c.n, got, want)
		}
	}
	for _, c := range []struct {
		format string
		args   []any
	}{
		{"%s", []any{"Back-off restarting failed container"}},
		{"%s", []any{42}},
		{"%s", []any{"a", "b"}},
		{"Successfully assigned %v/%v to %v", []any{"default", "web-1", "node-3"}},
		{"100%% done", nil},
	} {
		if got, want := message(c.format, c.args), fmt.Sprintf(c.format, c.args...); got != want {
			t.Errorf("message(%q, %v) = %q, want %q", c.format, c.args, got, want)
		}
	}
}

// At the caches' edge — 4096 entries each, the spam filter's, the
// aggregator's and the logger's — the recorder evicts what client-go's
// evicts: a repeat of an object still cached bumps its count, one evicted
// makes a new event, and a key looked up again (pod 0 below) outlives keys
// added after it. With one object fewer, the same stream only bumps counts.
func TestRecorderEvictsWhereClientGoEvicts(t *testing.T) {
	for _, n := range []int{spamCacheSize - 1, spamCacheSize, spamCacheSize + 1} {
		clock := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		ours, theirs := fake.NewSimpleClientset(), fake.NewSimpleClientset()
		r := &APIRecorder{Client: ours, Clock: clock, Component: "kubelet"}
		upstream := record.NewEventCorrelatorWithOptions(record.CorrelatorOptions{Clock: clock})
		emit := func(i int) {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("p%d", i), UID: types.UID(fmt.Sprintf("uid-%d", i))}}
			ev := r.event(pod, corev1.EventTypeNormal, "Pulled", "%s", "pulled")
			upstreamRecord(theirs, upstream, ev.DeepCopy())
			r.send(ev)
		}
		for i := range n {
			emit(i)
		}
		emit(0)
		emit(n) // one more object: evicts pod 1 once the caches are full
		first := len(ours.Actions())
		for i := range n + 1 {
			emit(i)
		}
		got, want := writes(ours.Actions()), writes(theirs.Actions())
		if !slices.Equal(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("%d objects: request %d of %d (client-go sent %d):\n got %s\nwant %s", n, i, len(got), len(want), got[i], want[i])
				}
			}
			t.Fatalf("%d objects: the recorder sent %d requests, client-go %d", n, len(got), len(want))
		}
		again := got[first:]
		if !strings.HasPrefix(again[0], "patch p0.") {
			t.Errorf("%d objects: pod 0, looked up again, was evicted: %s", n, again[0])
		}
		evicted := strings.HasPrefix(again[1], "create p1.")
		if wantEvicted := n >= spamCacheSize; evicted != wantEvicted {
			t.Errorf("%d objects: pod 1's repeat is %q, want it evicted: %v", n, again[1], wantEvicted)
		}
	}
}

// An object's spam bucket takes exactly the decisions of client-go's token
// bucket, through bursts, partial refills, clock steps of every size and a
// clock that goes back.
func TestTokenBucketIsClientGos(t *testing.T) {
	rnd := rand.New(rand.NewSource(2))
	for run := range 200 {
		clock := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		theirs := flowcontrol.NewTokenBucketPassiveRateLimiterWithClock(spamQPS, spamBurst, clock)
		var ours spamRecord
		var accepted, refused int
		for i := range 400 {
			switch rnd.Intn(6) {
			case 0:
				clock.Step(time.Duration(rnd.Int63n(int64(20 * time.Minute))))
			case 1:
				clock.Step(time.Duration(rnd.Intn(400)) * time.Second)
			case 2:
				clock.Step(time.Duration(rnd.Intn(1000))) // nanoseconds: fractions of a token
			case 3:
				if rnd.Intn(20) == 0 {
					clock.SetTime(clock.Now().Add(-time.Duration(rnd.Intn(60)) * time.Second))
				}
			}
			got, want := ours.allow(clock.Now()), theirs.TryAccept()
			if got != want {
				t.Fatalf("run %d, event %d at %v: allowed %v, client-go %v", run, i, clock.Now(), got, want)
			}
			if want {
				accepted++
			} else {
				refused++
			}
		}
		if run == 0 && (accepted <= spamBurst || refused == 0) {
			t.Fatalf("the stream neither ran the bucket dry nor refilled it (%d accepted, %d refused)", accepted, refused)
		}
	}
}
