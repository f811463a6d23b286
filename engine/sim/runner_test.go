package sim

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// pushSource stands in for the embedded API's commit stream.
type pushSource struct{ fn func(watch.Event) }

func (p *pushSource) Subscribe(fn func(watch.Event)) func() { p.fn = fn; return func() { p.fn = nil } }

// ticker re-arms itself every period until it has run n times, and records
// the virtual times it ran at.
type ticker struct {
	q      control.Queue
	clock  *Clock
	period time.Duration
	n      int
	ran    []time.Duration
	start  time.Time
	fail   int // fail this many times first
	seen   []string
}

func (t *ticker) Name() string { return "ticker" }
func (t *ticker) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	t.q = q
	return map[control.Kind]cache.ResourceEventHandler{control.Pods: cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { t.seen = append(t.seen, control.Key(obj)); q.Add("tick") },
	}}
}
func (t *ticker) Sync(_ context.Context, key string) error {
	if t.fail > 0 {
		t.fail--
		return errors.New("transient")
	}
	t.ran = append(t.ran, t.clock.Now().Sub(t.start))
	if len(t.ran) < t.n {
		t.q.AddAfter(key, t.period)
	}
	return nil
}

func newRunner(t *testing.T) (*Runner, *pushSource, *Clock) {
	t.Helper()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := NewClock(start)
	src := &pushSource{}
	r := New(fake.NewSimpleClientset(), src, clk, 1)
	return r, src, clk
}

func pod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}
}

func TestRunJumpsFromTimerToTimer(t *testing.T) {
	r, src, clk := newRunner(t)
	tk := &ticker{clock: clk, period: 10 * time.Second, n: 4, start: clk.Now()}
	r.Add(tk)
	src.fn(watch.Event{Type: watch.Added, Object: pod("a")})
	end, err := r.Run(context.Background(), RunOptions{})
	if err != nil || end != EndQuiescent {
		t.Fatalf("Run = %q, %v; want quiescent", end, err)
	}
	want := []time.Duration{0, 10 * time.Second, 20 * time.Second, 30 * time.Second}
	if fmt.Sprint(tk.ran) != fmt.Sprint(want) {
		t.Fatalf("ticks at %v, want %v", tk.ran, want)
	}
	if got := clk.Now().Sub(r.Start()); got != 30*time.Second {
		t.Fatalf("clock ended at +%v, want +30s", got)
	}
	if keys, _ := r.Listers().Pods.List(labels.Everything()); len(keys) != 1 {
		t.Fatalf("pod cache has %d pods, want 1", len(keys))
	}
}

func TestRunStopsAtUntil(t *testing.T) {
	r, src, clk := newRunner(t)
	tk := &ticker{clock: clk, period: 10 * time.Second, n: 100, start: clk.Now()}
	r.Add(tk)
	src.fn(watch.Event{Type: watch.Added, Object: pod("a")})
	end, _ := r.Run(context.Background(), RunOptions{Until: 25 * time.Second})
	if end != EndUntil || len(tk.ran) != 3 || clk.Now().Sub(r.Start()) != 25*time.Second {
		t.Fatalf("end %q after %d ticks at +%v; want until after 3 ticks at +25s", end, len(tk.ran), clk.Now().Sub(r.Start()))
	}
}

func TestFailedSyncIsRetriedWithBackoff(t *testing.T) {
	r, src, clk := newRunner(t)
	tk := &ticker{clock: clk, period: time.Second, n: 1, start: clk.Now(), fail: 3}
	r.Add(tk)
	src.fn(watch.Event{Type: watch.Added, Object: pod("a")})
	if _, err := r.Run(context.Background(), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	// 5ms + 10ms + 20ms of back-off before the fourth attempt succeeds.
	if len(tk.ran) != 1 || tk.ran[0] != 35*time.Millisecond {
		t.Fatalf("ran at %v, want one successful sync at 35ms", tk.ran)
	}
}

func TestScriptedActionsRunInOrderAndKeepTheRunAlive(t *testing.T) {
	r, src, _ := newRunner(t)
	var order []string
	r.At(20*time.Second, func() { order = append(order, "b") })
	r.At(10*time.Second, func() {
		order = append(order, "a")
		src.fn(watch.Event{Type: watch.Added, Object: pod("late")})
	})
	done := func() bool { return true }
	if _, err := r.Run(context.Background(), RunOptions{Finished: done}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(order) != "[a b]" {
		t.Fatalf("scripted order %v, want [a b]", order)
	}
	if _, ok, _ := r.Listers().PodIndex.GetByKey("default/late"); !ok {
		t.Fatal("a change made by a scripted action did not reach the caches")
	}
}

func TestClockFlowsAtSpeedAndStops(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	real := start
	c := NewClock(start)
	c.realNow = func() time.Time { return real }
	c.SetSpeed(10)
	real = real.Add(2 * time.Second)
	if got := c.Now().Sub(start); got != 20*time.Second {
		t.Fatalf("at 10x after 2s real: +%v, want +20s", got)
	}
	c.SetSpeed(0)
	real = real.Add(time.Hour)
	if got := c.Now().Sub(start); got != 20*time.Second {
		t.Fatalf("stopped clock moved to +%v", got)
	}
}

// counter counts its syncs and the keys it saw in each.
type counter struct {
	q     control.Queue
	clock *Clock
	start time.Time
	turns []string
}

func (c *counter) Name() string { return "counter" }
func (c *counter) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.q = q
	return map[control.Kind]cache.ResourceEventHandler{control.Pods: cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { q.Add("all") },
	}}
}
func (c *counter) Sync(_ context.Context, key string) error {
	c.turns = append(c.turns, c.clock.Now().Sub(c.start).String())
	return nil
}

func TestWindowCoalescesChangesIntoOneTurn(t *testing.T) {
	r, src, clk := newRunner(t)
	r.Window = 100 * time.Millisecond
	c := &counter{clock: clk, start: clk.Now()}
	r.Add(c)
	// Ten pods appear 10ms apart: with a 100ms window the controller syncs
	// at 0 (first pod), then once at 100ms for the nine that followed.
	for i := 0; i < 10; i++ {
		i := i
		r.At(time.Duration(i)*10*time.Millisecond, func() {
			src.fn(watch.Event{Type: watch.Added, Object: pod(fmt.Sprint("p", i))})
		})
	}
	if _, err := r.Run(context.Background(), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(c.turns) != "[0s 100ms]" {
		t.Fatalf("synced at %v, want [0s 100ms]", c.turns)
	}
}

// A controller that took its turn before its wake timer fired must still be
// woken for work queued after that turn.
func TestWindowNeverLosesAWakeUp(t *testing.T) {
	r, src, clk := newRunner(t)
	r.Window = 100 * time.Millisecond
	c := &counter{clock: clk, start: clk.Now()}
	r.Add(c)
	add := func(name string) func() {
		return func() { src.fn(watch.Event{Type: watch.Added, Object: pod(name)}) }
	}
	r.At(0, add("a"))                     // turn at 0, next turn not before 100ms
	r.At(50*time.Millisecond, add("b"))   // arms a wake-up at 100ms
	r.At(100*time.Millisecond, add("c"))  // fires first at 100ms: the turn runs before the wake-up timer
	r.At(100*time.Millisecond, func() {}) // keeps the instant busy
	r.At(100*time.Millisecond, add("d"))  // queued after the 100ms turn: needs a turn at 200ms
	if _, err := r.Run(context.Background(), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(c.turns); got != "[0s 100ms 200ms]" {
		t.Fatalf("turns at %v, want [0s 100ms 200ms]", got)
	}
}

// slowTicker is a ticker whose every sync takes real time, as a loaded
// machine makes it.
type slowTicker struct {
	ticker
	takes time.Duration
}

func (s *slowTicker) Sync(ctx context.Context, key string) error {
	err := s.ticker.Sync(ctx, key)
	time.Sleep(s.takes)
	return err
}

// A realtime run that falls behind real time slows its clock instead of
// letting it jump: at 1000x a sync that takes 2ms of real time is 2s of
// virtual time, yet every tick still comes at its 10ms and the scripted
// action at 25ms runs after exactly the ticks due before it — as a full
// speed run has them.
func TestRealtimeRunNeverSkipsWorkWhenItFallsBehind(t *testing.T) {
	r, src, clk := newRunner(t)
	tk := &slowTicker{ticker: ticker{clock: clk, period: 10 * time.Millisecond, n: 5, start: clk.Now()}, takes: 2 * time.Millisecond}
	r.Add(tk)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var ticksBefore int
	var actionAt time.Duration
	r.At(25*time.Millisecond, func() { ticksBefore, actionAt = len(tk.ran), clk.Since(r.Start()) })
	r.At(60*time.Millisecond, stop)
	// The clock starts flowing at 0, from the run itself, with the first pod.
	r.At(0, func() {
		src.fn(watch.Event{Type: watch.Added, Object: pod("a")})
		clk.SetSpeed(1000)
	})
	r.RunRealtime(ctx)
	want := []time.Duration{0, 10 * time.Millisecond, 20 * time.Millisecond, 30 * time.Millisecond, 40 * time.Millisecond}
	if fmt.Sprint(tk.ran) != fmt.Sprint(want) {
		t.Errorf("ticks at %v, want %v", tk.ran, want)
	}
	if ticksBefore != 3 || actionAt != 25*time.Millisecond {
		t.Errorf("the scripted action ran at +%v after %d ticks, want +25ms after 3", actionAt, ticksBefore)
	}
	if got := clk.Since(r.Start()); got < 60*time.Millisecond {
		t.Errorf("the clock went back to +%v after the run", got)
	}
}

// A held clock waits at the hold and goes on from there: no jump for the
// real time it waited.
func TestHeldClockWaitsAndGoesOnWithoutJumping(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	real := start
	c := NewClock(start)
	c.realNow = func() time.Time { return real }
	c.SetSpeed(10)
	c.holdAt(start.Add(5 * time.Second))
	real = real.Add(2 * time.Second)
	if got := c.Since(start); got != 5*time.Second {
		t.Fatalf("held at +5s after 2s real at 10x: +%v", got)
	}
	c.holdAt(start.Add(time.Minute))
	real = real.Add(time.Second)
	if got := c.Since(start); got != 15*time.Second {
		t.Fatalf("1s real after the hold moved on: +%v, want +15s (from +5s, not +30s)", got)
	}
	c.holdAt(start) // already past: held where it stands
	real = real.Add(time.Second)
	if got := c.Since(start); got != 15*time.Second {
		t.Fatalf("held in the past: +%v, want to stay at +15s", got)
	}
	c.release()
	real = real.Add(time.Second)
	if got := c.Since(start); got != 25*time.Second {
		t.Fatalf("released: +%v, want +25s", got)
	}
}

// A clock set flowing before the realtime run has started waits for it:
// at any speed, scripted actions and the run's end come at their virtual
// times, not all at the instant the run starts.
func TestClockSetFlowingBeforeTheRunWaitsForIt(t *testing.T) {
	for _, speed := range []float64{1000, 1e9, 1e15} {
		r, _, clk := newRunner(t)
		ctx, stop := context.WithCancel(context.Background())
		var at []time.Duration
		for _, d := range []time.Duration{5 * time.Second, 60 * time.Second} {
			r.At(d, func() { at = append(at, clk.Since(r.Start())) })
		}
		r.At(70*time.Second, stop)
		clk.SetSpeed(speed)
		time.Sleep(2 * time.Millisecond) // a goroutine slow to start the run
		if got := clk.Since(r.Start()); got != 0 {
			t.Errorf("at %g×: the clock moved to +%v before the run started", speed, got)
		}
		r.RunRealtime(ctx)
		stop()
		if fmt.Sprint(at) != "[5s 1m0s]" || clk.Since(r.Start()) != 70*time.Second {
			t.Errorf("at %g×: scripted actions at %v, run ended at +%v; want [5s 1m0s] and +1m10s", speed, at, clk.Since(r.Start()))
		}
	}
}

// Real time × speed beyond what a time.Duration holds does not wrap the
// clock around into the past, nor make a timer fire at once.
func TestClockArithmeticSaturates(t *testing.T) {
	start := time.Unix(0, 0)
	real := start
	c := &Clock{base: start, realNow: func() time.Time { return real }}
	c.SetSpeed(1e9)
	real = real.Add(time.Minute) // 6e19 ns of virtual time
	if got := c.Since(start); got != longest {
		t.Errorf("a minute at 1e9×: +%v, want the longest step %v", got, longest)
	}
	c.SetSpeed(1e-12)
	if d, _ := c.realDelay(c.Now().Add(time.Hour)); d != longest {
		t.Errorf("an hour at 1e-12×: a timer in %v, want %v", d, longest)
	}
}

// Several clusters' runners on one clock: it stops at the earliest of
// their holds, and goes on to the next once that runner moves its own.
func TestClockOfSeveralRunnersWaitsForTheEarliestHold(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	real := start
	c := NewClock(start)
	c.realNow = func() time.Time { return real }
	c.SetSpeed(10)
	a, b := new(int), new(int)
	c.holdFor(a, start.Add(time.Minute))
	c.holdFor(b, start.Add(5*time.Second))
	real = real.Add(10 * time.Second)
	if got := c.Since(start); got != 5*time.Second {
		t.Fatalf("holds at +60s and +5s, 10s real at 10x: +%v, want +5s", got)
	}
	c.holdFor(b, start.Add(2*time.Minute)) // b did its work: a's hold is the earliest
	real = real.Add(10 * time.Second)
	if got := c.Since(start); got != time.Minute {
		t.Fatalf("b moved on to +120s: +%v, want to stop at a's +60s", got)
	}
	c.releaseFor(a)
	real = real.Add(time.Second)
	if got := c.Since(start); got != 70*time.Second {
		t.Fatalf("a released: +%v, want +70s", got)
	}
}
