package plain

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func clock(time.Time) string { return "10:30:01" }

// Each cluster's lines name its context after the stamp; the run ends with
// every cluster's, failing with the failed one's error naming it; a
// cluster that could not be connected to is one line, said once however
// often it is tried again.
func TestEachNamesEveryLinesContext(t *testing.T) {
	var out, errOut bytes.Buffer
	var mu sync.Mutex
	arrivals := make(chan Arrival[int], 4)
	south := errors.New(`cannot reach (context "south")`)
	arrivals <- Arrival[int]{Context: "south", Err: south}
	arrivals <- Arrival[int]{Context: "east", Conn: 0}
	arrivals <- Arrival[int]{Context: "south", Err: south}
	arrivals <- Arrival[int]{Context: "west", Conn: 1}
	err := Each(context.Background(), &errOut, []string{"east", "west", "south"}, arrivals, clock,
		func(_ context.Context, i int, stamp func(time.Time) string) error {
			mu.Lock()
			say(&out, stamp(time.Time{}), "deployment/web rolled out")
			mu.Unlock()
			if i == 1 {
				return rolloutFailed{`deployment "web" exceeded its progress deadline`}
			}
			return nil
		})
	for _, want := range []string{"[10:30:01 east] deployment/web rolled out", "[10:30:01 west] deployment/web rolled out"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the lines lack %q:\n%s", want, out.String())
		}
	}
	if errOut.String() != "rollscope: cannot reach (context \"south\")\n" {
		t.Errorf("stderr %q, want the unreachable context's line once", errOut.String())
	}
	var failed rolloutFailed
	if err == nil || !errors.As(err, &failed) || !strings.Contains(err.Error(), `context "west"`) || strings.Contains(err.Error(), "east") {
		t.Errorf("outcome %v, want west's failure alone, naming west", err)
	}
}

// A cluster that answers while another is still silent is followed at
// once: its run starts before the silent one is heard from, and Each ends
// only once that one is.
func TestEachFollowsAClusterBeforeTheOthersAnswer(t *testing.T) {
	arrivals := make(chan Arrival[string])
	started, done := make(chan string), make(chan error)
	go func() {
		done <- Each(context.Background(), &bytes.Buffer{}, []string{"east", "silent"}, arrivals, clock,
			func(_ context.Context, name string, _ func(time.Time) string) error {
				started <- name
				return nil
			})
	}()
	arrivals <- Arrival[string]{Context: "east", Conn: "east"}
	if got := <-started; got != "east" {
		t.Fatalf("started %q, want east", got)
	}
	select {
	case err := <-done:
		t.Fatalf("Each ended (%v) before silent was heard from", err)
	default:
	}
	arrivals <- Arrival[string]{Context: "silent", Err: errors.New(`context "silent": no answer`)}
	if err := <-done; err != nil {
		t.Errorf("outcome %v, want nil: east's rollouts finished", err)
	}
}

// When none answers, the error says why of each on one line, in the order
// named, and nothing else is printed.
func TestEachWithNoneAnswering(t *testing.T) {
	var errOut bytes.Buffer
	arrivals := make(chan Arrival[int], 2)
	arrivals <- Arrival[int]{Context: "west", Err: errors.New(`context "west": refused`)}
	arrivals <- Arrival[int]{Context: "east", Err: errors.New(`context "east": no server`)}
	err := Each(context.Background(), &errOut, []string{"east", "west"}, arrivals, clock,
		func(context.Context, int, func(time.Time) string) error { return nil })
	if err == nil || err.Error() != `context "east": no server; context "west": refused` || errOut.Len() != 0 {
		t.Errorf("outcome %v, stderr %q; want east's then west's reason on one line, nothing else", err, errOut.String())
	}
}

// One cluster is followed as it is alone: its stamp is the clock's.
func TestEachOfOneIsTheClusterAlone(t *testing.T) {
	var stamped string
	arrivals := make(chan Arrival[int], 1)
	arrivals <- Arrival[int]{Context: "east"}
	err := Each(context.Background(), nil, []string{"east"}, arrivals, clock, func(_ context.Context, _ int, stamp func(time.Time) string) error {
		stamped = stamp(time.Time{})
		return nil
	})
	if err != nil || stamped != "10:30:01" {
		t.Errorf("one cluster: stamp %q, outcome %v; want the clock's stamp and nil", stamped, err)
	}
}
