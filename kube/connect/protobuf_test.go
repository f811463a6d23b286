package connect_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/kube/connect"
)

// Every client a connection makes asks for protobuf first — the console's and
// the one of another rate limit alike — and still takes JSON when that is
// what the server answers.
func TestClientsAskForProtobuf(t *testing.T) {
	isolate(t)
	var mu sync.Mutex
	var accepts []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		accepts = append(accepts, r.Header.Get("Accept"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{},"items":[]}`))
	}))
	t.Cleanup(srv.Close)
	conn, err := parse(t, "--kubeconfig", kubeconfig(t, srv.URL)).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fast, err := conn.WithRate(100, 200)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fast.AppsV1().Deployments("team").List(context.Background(), metav1.ListOptions{Limit: 1}); err != nil {
		t.Fatalf("a JSON answer to a protobuf client: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(accepts) != 2 {
		t.Fatalf("asked %d times, want 2", len(accepts))
	}
	for i, a := range accepts {
		if !strings.HasPrefix(a, connect.Protobuf) {
			t.Errorf("request %d: Accept %q, want %s first", i+1, a, connect.Protobuf)
		}
	}
}
