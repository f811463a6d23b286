package rollingupdate_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"

	. "rollscope/engine/rollingupdate"
)

// TestRunPrintsKubectlsLines runs the headless driver in the embedded
// cluster on virtual time and checks its transcript, line for line.
func TestRunPrintsKubectlsLines(t *testing.T) {
	w := newWorld(t)
	u := &Updater{Client: w.cluster.Client, Namespace: "default", Now: w.env.Clock.Now}
	var out bytes.Buffer
	req := fastRequest()
	req.Old = "web"
	if err := Run(context.Background(), u, req, time.Minute, VirtualClock{Runner: w.cluster.Runner}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	want, err := os.ReadFile(filepath.Join("testdata", "legacy-rc-kubectl.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("transcript\n got:\n%s\nwant (testdata/legacy-rc-kubectl.txt):\n%s", out.String(), want)
	}
	w.run(func() bool { return w.settledAt(newImage) }, time.Minute)
	if w.mostPods > replicas+maxSurge {
		t.Errorf("%d pods at once", w.mostPods)
	}
}

// TestRunStoppedThenRunAgainContinues: a headless run stopped part way
// (Ctrl-C) and run again says it continues and finishes.
func TestRunStoppedThenRunAgainContinues(t *testing.T) {
	w := newWorld(t)
	u := &Updater{Client: w.cluster.Client, Namespace: "default", Now: w.env.Clock.Now}
	req := fastRequest()
	req.Old, req.Next = "web", "web-v2"
	ctx, cancel := context.WithCancel(context.Background())
	var first bytes.Buffer
	clk := stopAfter{VirtualClock{Runner: w.cluster.Runner}, 4, cancel}
	if err := Run(ctx, u, req, time.Minute, &clk, &first); !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: got %v, want it stopped", err)
	}
	var second bytes.Buffer
	if err := Run(context.Background(), u, req, time.Minute, VirtualClock{Runner: w.cluster.Runner}, &second); err != nil {
		t.Fatalf("second run: %v\n%s", err, second.String())
	}
	if !strings.HasPrefix(second.String(), "Found existing update in progress (web-v2), resuming.\nContinuing update with existing controller web-v2.\n") ||
		!strings.HasSuffix(second.String(), "Update succeeded. Deleting web\nreplicationcontroller/web rolling updated to \"web-v2\"\n") {
		t.Errorf("second run printed:\n%s", second.String())
	}
	rcs := w.rcs()
	if len(rcs) != 1 || rcs[0].Name != "web-v2" || Size(&rcs[0]) != replicas || HasRolloutAnnotations(&rcs[0]) {
		t.Errorf("after the update: %s", w.describe())
	}
}

// TestRunTimesOutWithoutProgress: an update that cannot move (the new
// image never becomes ready) stops after --timeout with kubectl's message.
func TestRunTimesOutWithoutProgress(t *testing.T) {
	w := newWorld(t)
	u := &Updater{Client: w.cluster.Client, Namespace: "default", Now: w.env.Clock.Now}
	req := fastRequest()
	req.Old, req.Image = "web", "nginx:broken"
	var out bytes.Buffer
	err := Run(context.Background(), u, req, 30*time.Second, VirtualClock{Runner: w.cluster.Runner}, &out)
	if !errors.Is(err, ErrNoProgress) {
		t.Fatalf("got %v, want a timeout\n%s", err, out.String())
	}
}

// stopAfter cancels the run at its nth wait, as Ctrl-C would.
type stopAfter struct {
	VirtualClock
	n      int
	cancel func()
}

func (s *stopAfter) Wait(ctx context.Context, d time.Duration) error {
	if s.n--; s.n == 0 {
		s.cancel()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.VirtualClock.Wait(ctx, d)
}

// conflictingRCs answers every other update of a ReplicationController with
// a conflict, as a real API server does when the replication controller
// wrote its status between the updater's read and its write.
type conflictingRCs struct {
	typedcorev1.ReplicationControllerInterface
	n *int
}

func (r conflictingRCs) Update(ctx context.Context, rc *corev1.ReplicationController, o metav1.UpdateOptions) (*corev1.ReplicationController, error) {
	*r.n++
	if *r.n%2 == 1 {
		return nil, apierrors.NewConflict(schema.GroupResource{Resource: "replicationcontrollers"}, rc.Name, errors.New("the object has been modified"))
	}
	return r.ReplicationControllerInterface.Update(ctx, rc, o)
}

type conflictingCore struct {
	typedcorev1.CoreV1Interface
	n *int
}

func (c conflictingCore) ReplicationControllers(ns string) typedcorev1.ReplicationControllerInterface {
	return conflictingRCs{ReplicationControllerInterface: c.CoreV1Interface.ReplicationControllers(ns), n: c.n}
}

type conflictingClient struct {
	kubernetes.Interface
	n *int
}

func (c conflictingClient) CoreV1() typedcorev1.CoreV1Interface {
	return conflictingCore{CoreV1Interface: c.Interface.CoreV1(), n: c.n}
}

// TestRunReadsAgainAfterAConflict: a write refused for a stale read is not
// the end of the headless run.
func TestRunReadsAgainAfterAConflict(t *testing.T) {
	w := newWorld(t)
	var n int
	u := &Updater{Client: conflictingClient{Interface: w.cluster.Client, n: &n}, Namespace: "default", Now: w.env.Clock.Now}
	req := fastRequest()
	req.Old = "web"
	var out bytes.Buffer
	if err := Run(context.Background(), u, req, time.Minute, VirtualClock{Runner: w.cluster.Runner}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if n < 10 {
		t.Errorf("only %d updates were tried; the conflicts were not exercised", n)
	}
	// A refused write is not reported: its retry prints the line once.
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if seen[l] {
			t.Errorf("printed twice: %q\n%s", l, out.String())
		}
		seen[l] = true
	}
	w.run(func() bool { return w.settledAt(newImage) }, time.Minute)
}
