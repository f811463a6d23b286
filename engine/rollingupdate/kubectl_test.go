package rollingupdate_test

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	. "rollscope/engine/rollingupdate"
)

// TestTheUsersAnnotationsAndLabelsSurviveTheUpdate: what the user wrote on
// the controller is on the controller that remains, as kubectl 1.17 kept it,
// and nothing of the update is left beside it.
func TestTheUsersAnnotationsAndLabelsSurviveTheUpdate(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	rcs := w.cluster.Client.CoreV1().ReplicationControllers("default")
	rc, err := rcs.Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rc.Annotations = map[string]string{"example.com/owner": "team-a"}
	rc.Labels = map[string]string{"tier": "front"}
	if _, err := rcs.Update(ctx, rc, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	u := &Updater{Client: w.cluster.Client, Namespace: "default", Now: w.env.Clock.Now}
	req := fastRequest()
	req.Old = "web"
	var out bytes.Buffer
	if err := Run(ctx, u, req, time.Minute, VirtualClock{Runner: w.cluster.Runner}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	w.run(func() bool { return w.settledAt(newImage) }, time.Minute)
	got := w.rcs()[0]
	if len(got.Annotations) != 1 || got.Annotations["example.com/owner"] != "team-a" {
		t.Errorf("annotations after the update: %v, want only example.com/owner: team-a", got.Annotations)
	}
	if got.Labels["tier"] != "front" {
		t.Errorf("labels after the update: %v, want tier: front kept", got.Labels)
	}
}

// TestNamesInKubectlsForm: the next controller is <old>-<32 hex digits> and
// the old pods' deployment label <32 hex digits>-orig, as kubectl 1.17 named
// them, and the name stays the same for every step up to the rename.
func TestNamesInKubectlsForm(t *testing.T) {
	w := newWorld(t)
	u := &Updater{Client: w.cluster.Client, Namespace: "default", Now: w.env.Clock.Now}
	req := fastRequest()
	req.Old = "web"
	s := &Session{}
	var names []string
	var orig string
	for i := 0; i < 40; i++ {
		o, err := u.Step(context.Background(), req, s)
		if err != nil {
			t.Fatal(err)
		}
		if o.Next != "" && (o.Phase == PhasePrepare || o.Phase == PhaseRollout) {
			names = append(names, o.Next)
		}
		if rc, err := w.cluster.Client.CoreV1().ReplicationControllers("default").Get(context.Background(), "web", metav1.GetOptions{}); err == nil && orig == "" {
			orig = rc.Spec.Selector[DefaultDeploymentKey]
		}
		if o.Done {
			break
		}
		w.runFor(o.Wait + time.Second)
	}
	if len(names) == 0 || !regexp.MustCompile(`^web-[0-9a-f]{32}$`).MatchString(names[0]) {
		t.Fatalf("next controller names %v, want web-<32 hex digits>", names)
	}
	for _, n := range names {
		if n != names[0] {
			t.Errorf("the next controller's name changed during the update: %v", names)
			break
		}
	}
	if !regexp.MustCompile(`^[0-9a-f]{32}-orig$`).MatchString(orig) {
		t.Errorf("old selector's deployment value %q, want <32 hex digits>-orig", orig)
	}
	if strings.TrimPrefix(names[0], "web-")+"-orig" == orig {
		t.Errorf("the old and next controllers share the value %q", orig)
	}
}
