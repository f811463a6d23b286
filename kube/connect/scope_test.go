package connect_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
)

// :ctx lists the kubeconfig's contexts; a switch reconnects to the context
// and namespace asked for, a new context without a namespace taking its own.
func TestSwitchReconnectsToTheScopeAskedFor(t *testing.T) {
	isolate(t)
	srv, _ := apiServer(t, http.StatusOK)
	f := parse(t, "--kubeconfig", kubeconfig(t, srv.URL), "-n", "web")
	if got := f.Contexts(); !slices.Equal(got, []string{"prod", "staging"}) {
		t.Errorf("Contexts() = %v, want [prod staging]", got)
	}
	steps := []struct {
		context, namespace string // the switch
		wantCtx, wantNS    string // the connection after it
	}{
		{"", "", "staging", "web"},
		{"", "billing", "staging", "billing"},
		{"prod", "", "prod", "default"},
		{"staging", "", "staging", "team"},
		{"prod", "ops", "prod", "ops"},
	}
	for _, s := range steps {
		f.Switch(s.context, s.namespace)
		conn, err := f.Connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if conn.Context != s.wantCtx || conn.Namespace != s.wantNS {
			t.Errorf("after Switch(%q, %q): context %q namespace %q, want %q %q", s.context, s.namespace, conn.Context, conn.Namespace, s.wantCtx, s.wantNS)
		}
	}
}
