package connect_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// twoServers is a kubeconfig whose context up reaches srv and down a port
// nothing listens on; none has no server.
func twoServers(t *testing.T, server string) string {
	t.Helper()
	text := `apiVersion: v1
kind: Config
current-context: up
clusters:
- name: good
  cluster: {server: "` + server + `"}
- name: bad
  cluster: {server: "https://127.0.0.1:1"}
- name: empty
  cluster: {}
users:
- name: ops
  user: {token: secret}
contexts:
- name: up
  context: {cluster: good, user: ops, namespace: team}
- name: down
  context: {cluster: bad, user: ops}
- name: none
  context: {cluster: empty, user: ops}
`
	return writeConfig(t, text)
}

func TestNamesReadsSeveralContexts(t *testing.T) {
	isolate(t)
	config := kubeconfig(t, "https://127.0.0.1:1")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--kubeconfig", config}, []string{""}},
		{[]string{"--kubeconfig", config, "--context", "prod"}, []string{"prod"}},
		{[]string{"--kubeconfig", config, "--context", "staging,prod,staging"}, []string{"staging", "prod"}},
		{[]string{"--kubeconfig", config, "--all-contexts"}, []string{"prod", "staging"}},
	} {
		got, err := parse(t, c.args...).Names()
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%v: contexts %q, %v; want %q", c.args, got, err, c.want)
		}
	}
}

func TestAnUnknownContextIsBadInput(t *testing.T) {
	isolate(t)
	config := kubeconfig(t, "https://127.0.0.1:1")
	_, err := parse(t, "--kubeconfig", config, "--context", "staging,nope").Names()
	var bad interface{ BadInput() bool }
	if err == nil || !errors.As(err, &bad) || !bad.BadInput() || !strings.Contains(err.Error(), `context "nope" is not in`) {
		t.Errorf("error %v, want bad input naming nope", err)
	}
}

func TestAllContextsOfAKubeconfigWithNone(t *testing.T) {
	isolate(t)
	path := writeConfig(t, "apiVersion: v1\nkind: Config\n")
	_, err := parse(t, "--kubeconfig", path, "--all-contexts").Names()
	var bad interface{ BadInput() bool }
	if err == nil || !errors.As(err, &bad) || !strings.Contains(err.Error(), "has no contexts") {
		t.Errorf("error %v, want one line saying the kubeconfig has no contexts", err)
	}
}

// One context that answers, one that refuses the connection, one whose
// cluster has no server: the one is connected, each other fails on one
// line naming its context.
func TestConnectEachKeepsTheClustersThatAnswer(t *testing.T) {
	isolate(t)
	srv, _ := apiServer(t, http.StatusOK)
	config := twoServers(t, srv.URL)
	conns, failed, err := parse(t, "--kubeconfig", config, "--context", "up,down,none").ConnectEach(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(conns) != 1 || conns[0].Context != "up" || conns[0].Namespace != "team" {
		t.Fatalf("connected %+v, want up alone", conns)
	}
	if len(failed) != 2 || failed[0].Context != "down" || failed[1].Context != "none" {
		t.Fatalf("failed %+v, want down then none", failed)
	}
	for _, f := range failed {
		if line := f.Err.Error(); !strings.Contains(line, `"`+f.Context+`"`) || strings.Contains(line, "\n") {
			t.Errorf("%s fails with %q: want one line naming the context", f.Context, line)
		}
	}
}

func TestConnectEachWithNoneAnsweringFails(t *testing.T) {
	isolate(t)
	config := twoServers(t, "https://127.0.0.1:1")
	if _, _, err := parse(t, "--kubeconfig", config, "--context", "down").ConnectEach(context.Background()); err == nil {
		t.Errorf("no cluster answered, and no error")
	}
}

// `:ctx a,b` and `:ctx all` are --context a,b and --all-contexts for the
// next connection.
func TestSwitchToSeveralContexts(t *testing.T) {
	isolate(t)
	f := parse(t, "--kubeconfig", kubeconfig(t, "https://127.0.0.1:1"), "--context", "staging")
	f.Switch("prod,staging", "")
	if got, err := f.Names(); err != nil || !slices.Equal(got, []string{"prod", "staging"}) {
		t.Errorf(":ctx prod,staging: contexts %q, %v", got, err)
	}
	f.Switch("all", "")
	if got, err := f.Names(); err != nil || !slices.Equal(got, []string{"prod", "staging"}) {
		t.Errorf(":ctx all: contexts %q, %v", got, err)
	}
	f.Switch("prod", "")
	if got, err := f.Names(); err != nil || !slices.Equal(got, []string{"prod"}) {
		t.Errorf(":ctx prod after all: contexts %q, %v", got, err)
	}
}
