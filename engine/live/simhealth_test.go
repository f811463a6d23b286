package live

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// The run says once that the API server is gone and once that it is back.
func TestProbeSaysWhenTheAPIServerGoesAndComesBack(t *testing.T) {
	client := fake.NewClientset()
	var down atomic.Bool
	client.PrependReactor("get", "namespaces", func(k8stesting.Action) (bool, runtime.Object, error) {
		if down.Load() {
			return true, nil, errors.New("connection refused")
		}
		return false, nil, nil
	})
	var lines []string
	r := &Run{sim: &Simulation{Progress: func(l string) { lines = append(lines, l) }}, client: client, Namespace: "run"}
	var h health
	ctx := context.Background()
	for _, up := range []bool{true, false, false, true, true} {
		down.Store(!up)
		h.next = h.next.AddDate(-1, 0, 0) // due now, without waiting
		r.probe(ctx, &h)
	}
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "lost the API server (connection refused)") || !strings.HasPrefix(lines[1], "the API server answers again after") {
		t.Errorf("progress lines %q, want one for the loss and one for the return", lines)
	}
}
