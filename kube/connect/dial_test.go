package connect

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// fakeDial answers for each name as its func says; a name without one never
// answers (a server that accepts and never replies), until the dialing
// stops.
type fakeDial struct {
	mu    sync.Mutex
	tries map[string]int
	calls chan string
	each  map[string]func(try int) (*Connection, error)
}

func newFakeDial(each map[string]func(try int) (*Connection, error)) *fakeDial {
	return &fakeDial{tries: map[string]int{}, calls: make(chan string, 100), each: each}
}

func (f *fakeDial) dial(ctx context.Context, name string) (*Connection, error) {
	f.calls <- name
	answer, ok := f.each[name]
	if !ok {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	f.mu.Lock()
	f.tries[name]++
	try := f.tries[name]
	f.mu.Unlock()
	return answer(try)
}

// waitForRetry returns once a failed context waits on the clock.
func waitForRetry(t *testing.T, clk *clocktesting.FakeClock) {
	t.Helper()
	for !clk.HasWaiters() {
		time.Sleep(time.Millisecond)
	}
}

func next(t *testing.T, d *Dialing) Attempt {
	t.Helper()
	select {
	case a := <-d.Attempts():
		return a
	case <-t.Context().Done():
		t.Fatal("no attempt")
		return Attempt{}
	}
}

// A context that never answers holds up none of the others: the console
// starts on the one that answered, the silent one still pending; a context
// that failed is tried again after 1 s, then 2 s, and joins when it
// answers.
func TestDialStartsOnTheFirstToAnswerAndRetriesTheFailed(t *testing.T) {
	release := make(chan struct{})
	refused := errors.New(`context "c": connection refused`)
	fake := newFakeDial(map[string]func(int) (*Connection, error){
		"b": func(int) (*Connection, error) { return &Connection{Context: "b"}, nil },
		"c": func(try int) (*Connection, error) {
			<-release
			if try < 3 {
				return nil, refused
			}
			return &Connection{Context: "c"}, nil
		},
	})
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	clk := clocktesting.NewFakeClock(start)
	d := dialEach(t.Context(), []string{"a", "b", "c"}, fake.dial, clk)
	defer d.Stop()

	answered, tried, pending, err := d.Start(t.Context())
	if err != nil || len(answered) != 1 || answered[0].Context != "b" || len(tried) != 0 || !slices.Equal(pending, []string{"a", "c"}) {
		t.Fatalf("start: answered %v, tried %v, pending %q, %v; want b alone, a and c pending", answered, tried, pending, err)
	}

	close(release)
	first := next(t, d)
	if first.Context != "c" || first.Err == nil || !first.At.Equal(start) || !first.Again.Equal(start.Add(time.Second)) {
		t.Fatalf("first try of c: %+v; want refused at the start, again 1s later", first)
	}
	waitForRetry(t, clk)
	clk.Step(time.Second)
	second := next(t, d)
	if second.Context != "c" || second.Err == nil || !second.Again.Equal(start.Add(3*time.Second)) {
		t.Fatalf("second try of c: %+v; want refused, again 2s later", second)
	}
	waitForRetry(t, clk)
	clk.Step(2 * time.Second)
	third := next(t, d)
	if third.Context != "c" || third.Err != nil || third.Conn.Context != "c" {
		t.Fatalf("third try of c: %+v; want it connected", third)
	}
	select {
	case a := <-d.Attempts():
		t.Fatalf("a never answers, yet %+v", a)
	default:
	}
}

// When every context fails its first try, Start says why of each, in the
// order named, on one line; a context that fails again meanwhile is said
// once.
func TestDialWithNoneAnsweringSaysWhyOfEach(t *testing.T) {
	fake := newFakeDial(map[string]func(int) (*Connection, error){
		"east": func(int) (*Connection, error) { return nil, errors.New(`context "east": refused`) },
		"west": func(int) (*Connection, error) { return nil, errors.New(`context "west": no server`) },
	})
	d := dialEach(t.Context(), []string{"west", "east"}, fake.dial, clocktesting.NewFakeClock(time.Now()))
	defer d.Stop()
	_, _, _, err := d.Start(t.Context())
	if err == nil || err.Error() != `context "west": no server; context "east": refused` {
		t.Fatalf("error %v; want west's then east's on one line", err)
	}
}

// One context is the one-element case: its error is Connect's own.
func TestDialOneContextFailsWithItsOwnError(t *testing.T) {
	refused := errors.New("the API server refused the connection")
	fake := newFakeDial(map[string]func(int) (*Connection, error){
		"": func(int) (*Connection, error) { return nil, refused },
	})
	d := dialEach(t.Context(), []string{""}, fake.dial, clocktesting.NewFakeClock(time.Now()))
	defer d.Stop()
	if _, _, _, err := d.Start(t.Context()); !errors.Is(err, refused) || strings.Contains(err.Error(), ";") {
		t.Fatalf("error %v; want Connect's own", err)
	}
}
