package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// A mistyped command is refused as kubectl refuses one — cobra's "did you
// mean", exit 2, one line — and no request reaches the cluster for it;
// nor for a word no object can be named. A bare deployment name still
// reaches the cluster, as the README documents.
func TestMistypedCommandsSendNoRequest(t *testing.T) {
	var requests atomic.Int64
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403}`))
	}))
	defer server.Close()
	config := filepath.Join(t.TempDir(), "config")
	text := "apiVersion: v1\nkind: Config\ncurrent-context: lab\nclusters:\n- name: lab\n  cluster: {server: \"" + server.URL + "\"}\n" +
		"users:\n- name: ops\n  user: {token: secret}\ncontexts:\n- name: lab\n  context: {cluster: lab, user: ops, namespace: shop}\n"
	if err := os.WriteFile(config, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"scenario"}, `unknown command "scenario": did you mean scenarios?`},
		{[]string{"rolling-updte", "web", "--image=nginx:2"}, `unknown command "rolling-updte": did you mean rolling-update?`},
		{[]string{"simulat", "-f", "frontend"}, `did you mean simulate?`},
		{[]string{"Web_1"}, `"Web_1" is neither a command nor a workload's name`},
	} {
		for _, cluster := range [][]string{nil, {"--kubeconfig", config}} {
			args := append(append([]string{}, tc.args...), cluster...)
			before := requests.Load()
			r := rollscope(t, args...)
			if r.code != 2 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tc.says) || !strings.HasSuffix(r.stderr, "— see rollscope --help\n") {
				t.Errorf("rollscope %v: exit %d, stderr %q; want exit 2 and one line with %q", args, r.code, r.stderr, tc.says)
			}
			if sent := requests.Load() - before; sent != 0 {
				t.Errorf("rollscope %v sent %d requests; want none", args, sent)
			}
		}
	}
	// The same cluster is asked for a deployment named on its own: the
	// test's server does see what rollscope sends.
	before := requests.Load()
	rollscope(t, "--plain", "web", "--kubeconfig", config)
	if requests.Load() == before {
		t.Errorf("rollscope --plain web sent no request; the test cannot see requests")
	}
}

// No script is written for a shell completion does not know: it printed
// completion's help and exited 0, so `rollscope completion bsh > file`
// looked like it had worked.
func TestCompletionRefusesAnUnknownShell(t *testing.T) {
	r := rollscope(t, "completion", "nosh")
	want := "rollscope: unknown command \"nosh\" for \"rollscope completion\" — see rollscope completion --help\n"
	if r.code != 2 || r.stdout != "" || r.stderr != want {
		t.Errorf("rollscope completion nosh: exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.stdout, r.stderr, want)
	}
	if r := rollscope(t, "completion", "bash"); r.code != 0 || !strings.Contains(r.stdout, "bash completion") {
		t.Errorf("rollscope completion bash: exit %d, stdout %.80q", r.code, r.stdout)
	}
}
