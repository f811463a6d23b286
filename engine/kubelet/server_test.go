package kubelet

import (
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The log server answers /containerLogs over TLS as the kubelet does: the
// log, or the kubelet's refusal with its status code.
func TestLogServerAnswersContainerLogs(t *testing.T) {
	logs := NewLogs()
	h := newHarness(t, 1, []ImageRule{
		{Match: "*:missing", PullError: true},
		{Match: "*", Start: time.Second, Ready: time.Second, Logs: []string{"starting", "listening on :8080"}},
	}, Options{Logs: logs})
	h.addNode("n1", true)
	h.addPod("web", "n1", "web:v2")
	h.addPod("db", "n1", "db:missing")
	h.runFor(30 * time.Second)

	srv, err := ListenLogs(logs)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(t.Context()) }()
	// As the API server does without --kubelet-certificate-authority.
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := client.Get(fmt.Sprintf("https://%s:%d%s", srv.IP(), srv.Port(), path))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/containerLogs/default/web/a?tailLines=1"); code != 200 || body != "listening on :8080\n" {
		t.Errorf("web's last line: %d %q", code, body)
	}
	if code, body := get("/containerLogs/default/db/a"); code != 400 || !strings.Contains(body, "is waiting to start") {
		t.Errorf("db's log: %d %q; want 400 waiting to start", code, body)
	}
	if code, _ := get("/containerLogs/default/nope/a"); code != 404 {
		t.Errorf("a missing pod's log: %d, want 404", code)
	}
}
