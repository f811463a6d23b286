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
// every cluster's, failing with the failed one's error naming it.
func TestEachNamesEveryLinesContext(t *testing.T) {
	var out, errOut bytes.Buffer
	var mu sync.Mutex
	err := Each(context.Background(), &errOut, []string{"east", "west"}, []string{`cannot reach (context "south")`}, clock,
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
		t.Errorf("stderr %q, want the unreachable context's line", errOut.String())
	}
	var failed rolloutFailed
	if err == nil || !errors.As(err, &failed) || !strings.Contains(err.Error(), `context "west"`) || strings.Contains(err.Error(), "east") {
		t.Errorf("outcome %v, want west's failure alone, naming west", err)
	}
}

// One cluster is followed as it is alone: its stamp is the clock's.
func TestEachOfOneIsTheClusterAlone(t *testing.T) {
	var stamped string
	err := Each(context.Background(), nil, []string{"east"}, nil, clock, func(_ context.Context, _ int, stamp func(time.Time) string) error {
		stamped = stamp(time.Time{})
		return nil
	})
	if err != nil || stamped != "10:30:01" {
		t.Errorf("one cluster: stamp %q, outcome %v; want the clock's stamp and nil", stamped, err)
	}
}
