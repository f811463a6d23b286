package connect_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"rollscope/kube/connect"
)

// kubeconfig writes a kubeconfig with two contexts on server and returns
// its path: "staging" (namespace team, the current context) and "prod"
// (no namespace).
func kubeconfig(t *testing.T, server string) string {
	t.Helper()
	text := `apiVersion: v1
kind: Config
current-context: staging
clusters:
- name: lab
  cluster: {server: "` + server + `"}
users:
- name: ops
  user: {token: secret}
contexts:
- name: staging
  context: {cluster: lab, user: ops, namespace: team}
- name: prod
  context: {cluster: lab, user: ops}
`
	return writeConfig(t, text)
}

// writeConfig writes a kubeconfig's text to a file of its own.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// isolate keeps the developer's own kubeconfig and any in-cluster service
// account out of the test.
func isolate(t *testing.T) {
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBERNETES_SERVICE_PORT", "")
}

func parse(t *testing.T, args ...string) *connect.Flags {
	t.Helper()
	f := connect.NewFlags()
	fs := pflag.NewFlagSet("rollscope", pflag.ContinueOnError)
	f.AddTo(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return f
}

// asked records the paths an API server was asked for.
type asked struct {
	mu    sync.Mutex
	paths []string
}

func (a *asked) take() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.paths
	a.paths = nil
	return p
}

// apiServer answers deployment lists with code.
func apiServer(t *testing.T, code int) (*httptest.Server, *asked) {
	t.Helper()
	a := &asked{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.paths = append(a.paths, r.URL.Path)
		a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		switch code {
		case http.StatusOK:
			_, _ = w.Write([]byte(`{"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{},"items":[]}`))
		default:
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"no","code":` + strconv.Itoa(code) + `}`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv, a
}

func TestConnectUsesTheContextsNamespaceUnlessNIsGiven(t *testing.T) {
	isolate(t)
	srv, paths := apiServer(t, http.StatusOK)
	config := kubeconfig(t, srv.URL)
	cases := []struct {
		args        []string
		context, ns string
		path        string
	}{
		{[]string{"--kubeconfig", config}, "staging", "team", "/apis/apps/v1/namespaces/team/deployments"},
		{[]string{"--kubeconfig", config, "-n", "web"}, "staging", "web", "/apis/apps/v1/namespaces/web/deployments"},
		{[]string{"--kubeconfig", config, "--context", "prod"}, "prod", "default", "/apis/apps/v1/namespaces/default/deployments"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[2:], " "), func(t *testing.T) {
			paths.take()
			conn, err := parse(t, c.args...).Connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if conn.Context != c.context || conn.Namespace != c.ns || conn.Server != srv.URL || conn.Client == nil {
				t.Errorf("connection = %+v, want context %s, namespace %s, server %s", conn, c.context, c.ns, srv.URL)
			}
			if got := paths.take(); len(got) != 1 || got[0] != c.path {
				t.Errorf("asked %v, want one list at %s", got, c.path)
			}
		})
	}
}

func TestConnectReadsKUBECONFIG(t *testing.T) {
	isolate(t)
	srv, _ := apiServer(t, http.StatusOK)
	t.Setenv("KUBECONFIG", kubeconfig(t, srv.URL))
	conn, err := parse(t).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if conn.Context != "staging" || conn.Namespace != "team" {
		t.Errorf("connection = %+v, want the current context staging in namespace team", conn)
	}
}

func TestConnectFailuresSayWhatToDo(t *testing.T) {
	isolate(t)
	unauthorized, _ := apiServer(t, http.StatusUnauthorized)
	forbidden, _ := apiServer(t, http.StatusForbidden)
	// A port nothing listens on any more refuses connections.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stopped := "http://" + l.Addr().String()
	l.Close()

	cases := []struct {
		name, server string
		extra        []string
		want         string
	}{
		{"refused", stopped, nil,
			"cannot reach the API server " + stopped + ": connection refused — is the cluster up, and is --context right?"},
		{"401", unauthorized.URL, nil,
			"the API server " + unauthorized.URL + ` answered: your credentials for context "staging" were rejected (401): log in again`},
		{"403", forbidden.URL, []string{"-n", "secret"},
			"the API server " + forbidden.URL + ` answered: context "staging" may not list deployments in namespace "secret" (403): pick a namespace you can read with -n, or ask for access`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"--kubeconfig", kubeconfig(t, c.server)}, c.extra...)
			_, err := parse(t, args...).Connect(context.Background())
			if err == nil {
				t.Fatal("connected")
			}
			if err.Error() != c.want {
				t.Errorf("error =\n  %s\nwant\n  %s", err, c.want)
			}
			var ce *connect.Error
			if !errors.As(err, &ce) || errors.Unwrap(err) == nil {
				t.Errorf("error %v does not carry its cause", err)
			}
		})
	}
}

func TestConnectRefusesAnUnknownContext(t *testing.T) {
	isolate(t)
	config := kubeconfig(t, "https://127.0.0.1:1")
	_, err := parse(t, "--kubeconfig", config, "--context", "nope").Connect(context.Background())
	want := `context "nope" is not in ` + config + ` (contexts: prod, staging)`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestConnectWithoutAnyKubeconfig(t *testing.T) {
	isolate(t)
	_, err := parse(t).Connect(context.Background())
	if err == nil || !strings.HasPrefix(err.Error(), "no kubeconfig found (looked in ") || !strings.Contains(err.Error(), "--kubeconfig") {
		t.Errorf("error = %v, want one line saying no kubeconfig was found and what to pass", err)
	}
	// No connection flag was given: the line does not talk about leaving
	// them out, and says what the command can do without a cluster.
	_, err = parse(t).Offline("rehearse it with --scenario NAME").Connect(context.Background())
	if err == nil || strings.Contains(err.Error(), "connection flags") || !strings.HasSuffix(err.Error(), ", or rehearse it with --scenario NAME") {
		t.Errorf("error = %v, want what to name and what to do without a cluster, and nothing about flags not given", err)
	}
}

func TestConnectWithAMissingKubeconfigFile(t *testing.T) {
	isolate(t)
	missing := filepath.Join(t.TempDir(), "nowhere")
	_, err := parse(t, "--kubeconfig", missing).Connect(context.Background())
	if err == nil || !strings.HasPrefix(err.Error(), "cannot read the kubeconfig "+missing+": ") {
		t.Errorf("error = %v, want it to name the file it could not read", err)
	}
}

func TestLive(t *testing.T) {
	cases := []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"-n", "web"}, false},
		{[]string{"--request-timeout", "5s"}, false},
		{[]string{"--kubeconfig", "/k"}, true},
		{[]string{"--context", "prod"}, true},
		{[]string{"--cluster", "lab"}, true},
		{[]string{"--user", "ops"}, true},
		{[]string{"--server", "https://10.0.0.1"}, true},
	}
	for _, c := range cases {
		if got := parse(t, c.args...).Live(); got != c.want {
			t.Errorf("Live() with %v = %v, want %v", c.args, got, c.want)
		}
	}
}

func TestConnectGivesUpOnASilentServer(t *testing.T) {
	isolate(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(srv.Close)
	c, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := parse(t, "--kubeconfig", kubeconfig(t, srv.URL)).Connect(c)
	want := "the API server " + srv.URL + " did not answer in time — is the cluster up, and is --context right?"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}
