package rc

import (
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"rollscope/engine/rollingupdate"
)

// renameFlow stops an update right after the copy of the next controller has
// taken the old name, as a crash there would: an abort is refused (nothing
// old is left to restore) and changes nothing, and the same update run again
// finishes the rename.
func renameFlow(t *testing.T, c *cluster) {
	const ns = "rc-rename"
	c.web(t, ns)
	pods := watchPods(t, c.Admin, ns)
	// The update's own steps, in this process, up to the rename.
	u := &rollingupdate.Updater{Client: c.Admin, Namespace: ns, Now: time.Now}
	req := rollingupdate.Request{Old: "web", Image: newImage,
		UpdatePeriod: rollingupdate.Duration(time.Second), PollInterval: rollingupdate.Duration(200 * time.Millisecond)}
	s := &rollingupdate.Session{}
	deadline := time.Now().Add(patience)
	for renamed := false; !renamed; {
		o, err := u.Step(t.Context(), req, s)
		if apierrors.IsConflict(err) {
			continue // the replication controller wrote it in between
		}
		if err != nil {
			t.Fatalf("a step of the update: %v", err)
		}
		if o.Done || time.Now().After(deadline) {
			t.Fatalf("the update ended (%v) without a rename phase", o.Done)
		}
		for _, l := range o.Lines {
			renamed = renamed || strings.HasPrefix(l, "Renaming ")
		}
		time.Sleep(o.Wait)
	}
	out, err := c.rollingUpdate(t, ns, "--rollback")
	if err == nil || !strings.Contains(out, "no old controller left to restore") {
		t.Errorf("--rollback in the rename phase: %v, want a refusal saying why:\n%s", err, out)
	}
	out, err = c.rollingUpdate(t, ns, "--image", newImage)
	if err != nil {
		t.Fatalf("the update run again: %v\n%s", err, out)
	}
	c.settled(t, ns, newImage)
	if n := pods.max(); n > replicas+maxSurge {
		t.Errorf("%d pods ran at once, more than replicas + maxSurge = %d", n, replicas+maxSurge)
	}
}
