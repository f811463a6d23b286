package argo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	scaleclient "k8s.io/client-go/scale"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	kubectlscale "k8s.io/kubectl/pkg/scale"

	"rollscope/engine/perform"
	"rollscope/kube/objects"
	"rollscope/model/action"
	"rollscope/test/e2e/e2etest"
)

// heldManifest is the Rollout both sides of an action start from: the same
// spec under two names. Its steps are indefinite pauses only, so that
// where the controller leaves it depends on the actions, not on a clock.
func heldManifest(name, image string) string {
	return rolloutManifest(name, "held", 4, image, `
      - setWeight: 25
      - pause: {}
      - setWeight: 50
      - pause: {}`)
}

const heldImage = "registry.example/held"

// write is one write request as it reached the API server: method, path
// (with the subresource), content type and body, the names and times in
// them replaced by placeholders.
type write struct {
	Method, Path, ContentType, Body string
}

func (w write) String() string {
	return fmt.Sprintf("%s %s (%s) %s", w.Method, w.Path, w.ContentType, w.Body)
}

// recorder is a reverse proxy in front of the API server that lets every
// request through with the admin's credentials and keeps the writes.
type recorder struct {
	srv    *httptest.Server
	mu     sync.Mutex
	writes []write
	ns     string
	name   string
}

// record starts a recorder for the requests on Rollout ns/name.
func record(t *testing.T, c *e2etest.Cluster, ns, name string) *recorder {
	t.Helper()
	cfg := c.CP.AdminConfig()
	transport, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	target, err := url.Parse(cfg.Host)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{ns: ns, name: name}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.Transport = transport
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			rec.mu.Lock()
			rec.writes = append(rec.writes, write{Method: r.Method, Path: rec.anonymous(r.URL.Path),
				ContentType: r.Header.Get("Content-Type"), Body: rec.normal(t, body)})
			rec.mu.Unlock()
		}
		r.Header.Del("Authorization")
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(rec.srv.Close)
	return rec
}

// anonymous replaces the Rollout's namespace and name in s.
func (rec *recorder) anonymous(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, rec.ns, "NS"), rec.name, "NAME")
}

// normal is a JSON body with the namespace and name replaced, the fields
// that differ between two objects of the same spec (uid, resourceVersion)
// and every time in it made placeholders, its keys sorted.
func (rec *recorder) normal(t *testing.T, body []byte) string {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return rec.anonymous(string(body))
	}
	var walk func(any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				switch k {
				case "uid", "resourceVersion":
					v[k] = strings.ToUpper(k)
				default:
					v[k] = walk(e)
				}
			}
		case []any:
			for i, e := range v {
				v[i] = walk(e)
			}
		case string:
			if _, err := time.Parse(time.RFC3339, v); err == nil {
				return "TIME"
			}
			return rec.anonymous(v)
		}
		return v
	}
	b, err := json.Marshal(walk(v))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sent is what the recorder has kept, in order.
func (rec *recorder) sent() []write {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return slices.Clone(rec.writes)
}

// kubeconfig writes a kubeconfig for the recorder, as the plugin reads one.
func (rec *recorder) kubeconfig(t *testing.T) string {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["rec"] = &clientcmdapi.Cluster{Server: rec.srv.URL}
	cfg.AuthInfos["rec"] = &clientcmdapi.AuthInfo{}
	cfg.Contexts["rec"] = &clientcmdapi.Context{Cluster: "rec", AuthInfo: "rec", Namespace: "default"}
	cfg.CurrentContext = "rec"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// config is a REST config for the recorder.
func (rec *recorder) config() *rest.Config {
	return &rest.Config{Host: rec.srv.URL, QPS: 200, Burst: 400}
}

// state is where the controller left a Rollout: what the plugin's
// commands and rollscope's actions are held to.
type state struct {
	Phase        string
	Step         int64
	PauseReasons []string
	Abort        bool
	Paused       bool
	Restarted    bool
	Replicas     int64
	RSs          []revisionState // by revision
	settled      bool
}

// newest is the ReplicaSet of the highest revision (zero if none).
func (s state) newest() revisionState {
	if len(s.RSs) == 0 {
		return revisionState{}
	}
	return s.RSs[len(s.RSs)-1]
}

// revisionState is one ReplicaSet of the Rollout by its revision.
type revisionState struct {
	Revision, Image string
	Spec, Ready     int32
}

func (s state) String() string {
	return fmt.Sprintf("phase %s step %d pause %v abort %v paused %v restarted %v replicas %d ReplicaSets %v settled %v",
		s.Phase, s.Step, s.PauseReasons, s.Abort, s.Paused, s.Restarted, s.Replicas, s.RSs, s.settled)
}

// equal compares two states, leaving settled aside.
func (s state) equal(o state) bool {
	s.settled, o.settled = false, false
	return fmt.Sprint(s) == fmt.Sprint(o)
}

// readState reads the Rollout's state; settled says the controller has
// seen its latest spec, is not in the middle of a step, and every
// ReplicaSet has the pods it asks for ready.
func (r rollout) readState(ctx context.Context) (state, error) {
	u, owned, err := r.get(ctx)
	if err != nil {
		return state{}, err
	}
	var ro struct {
		Spec struct {
			Paused    bool
			RestartAt string
			Replicas  int64
		}
		Status struct {
			Phase              string
			CurrentStepIndex   *int64
			PauseConditions    []struct{ Reason string }
			Abort              bool
			RestartedAt        string
			ObservedGeneration string
		}
	}
	if err := remarshal(u.Object, &ro); err != nil {
		return state{}, err
	}
	st := ro.Status
	s := state{Phase: st.Phase, Step: -1, Abort: st.Abort, Paused: ro.Spec.Paused, Replicas: ro.Spec.Replicas,
		Restarted: ro.Spec.RestartAt != "" && st.RestartedAt == ro.Spec.RestartAt}
	if st.CurrentStepIndex != nil {
		s.Step = *st.CurrentStepIndex
	}
	for _, p := range st.PauseConditions {
		s.PauseReasons = append(s.PauseReasons, p.Reason)
	}
	s.settled = st.ObservedGeneration == fmt.Sprint(u.GetGeneration()) && st.Phase != "Progressing" &&
		(ro.Spec.RestartAt == "" || s.Restarted)
	for _, rs := range owned {
		got := revisionState{Revision: rs.Annotations["rollout.argoproj.io/revision"], Ready: rs.Status.ReadyReplicas,
			Image: rs.Spec.Template.Spec.Containers[0].Image}
		if rs.Spec.Replicas != nil {
			got.Spec = *rs.Spec.Replicas
		}
		if got.Spec != got.Ready || rs.Status.Replicas != got.Spec {
			s.settled = false
		}
		s.RSs = append(s.RSs, got)
	}
	slices.SortFunc(s.RSs, func(a, b revisionState) int { return strings.Compare(a.Revision, b.Revision) })
	return s, nil
}

// settle waits until the controller has settled the Rollout, and returns
// its state.
func (r rollout) settle(t *testing.T, what string) state {
	t.Helper()
	return r.waitForState(t, "settled "+what, func(s state) bool { return s.settled })
}

// The states a Rollout is brought to before an action, the same way on
// both sides.
var (
	atHealthy = func(t *testing.T, r rollout) {}
	atStep    = func(t *testing.T, r rollout) {
		r.setImage(t, heldImage+":v2")
		r.waitForState(t, "paused at its first pause", func(s state) bool { return s.settled && s.Phase == "Paused" && s.Step == 1 })
	}
	atAborted = func(t *testing.T, r rollout) {
		atStep(t, r)
		r.abort(t)
		r.waitForState(t, "aborted", func(s state) bool { return s.settled && s.Abort && s.Phase == "Degraded" })
	}
	atPausedByHand = func(t *testing.T, r rollout) {
		r.patch(t, `{"spec":{"paused":true}}`)
		r.waitForState(t, "paused by hand", func(s state) bool { return s.settled && s.Phase == "Paused" && s.Paused })
	}
	// atRevision3 has rolled fully to :v2, then to :v3.
	atRevision3 = func(t *testing.T, r rollout) {
		for _, v := range []string{"v2", "v3"} {
			r.setImage(t, heldImage+":"+v)
			r.waitForState(t, v+" at its first pause", func(s state) bool {
				return s.settled && s.Phase == "Paused" && s.Step == 1 && s.newest().Image == heldImage+":"+v
			})
			r.patch(t, `{"status":{"promoteFull":true}}`, "status")
			r.waitForState(t, "fully on "+v, func(s state) bool {
				return s.settled && s.Phase == "Healthy" && s.newest().Image == heldImage+":"+v
			})
		}
	}
)

// waitForState polls the Rollout's state until done says so of it.
func (r rollout) waitForState(t *testing.T, what string, done func(state) bool) state {
	t.Helper()
	return waitUntil(t, r, what, r.readState, done)
}

// TestActionsAsThePluginSendsThem: for every action rollscope offers on a
// Rollout, two Rollouts of the same spec are brought to the same state;
// Argo's own kubectl plugin runs its command on one (for resume and scale,
// which it has none for, what the command rollscope names sends: kubectl's
// merge patch and kubectl's scale client), rollscope's action
// (engine/perform, as the console sends it) runs on the other. The writes
// that reach the API server are the same, and the controller leaves both
// Rollouts in the same state. Where rollscope refuses, nothing is sent.
func TestActionsAsThePluginSendsThem(t *testing.T) {
	t.Parallel()
	c := cluster(t)
	cases := []struct {
		name    string
		before  func(*testing.T, rollout)
		plugin  []string                                           // the plugin's command after its name; NAME is replaced
		other   func(context.Context, *rest.Config, rollout) error // when the plugin has no command
		request action.Request
		// ends says where the controller leaves the Rollout after the
		// action, after is it.
		ends    string
		after   func(state) bool
		refused string // rollscope refuses, saying this; nothing is sent
	}{
		{name: "promote", before: atStep, plugin: []string{"promote", "NAME"}, request: action.Request{Action: "ro-promote"},
			ends: "at the second pause", after: func(s state) bool { return s.Phase == "Paused" && s.Step == 3 }},
		{name: "promote-full", before: atStep, plugin: []string{"promote", "NAME", "--full"}, request: action.Request{Action: "ro-promote-full"},
			ends: "Healthy on :v2", after: func(s state) bool { return s.Phase == "Healthy" && s.newest().Image == heldImage+":v2" }},
		{name: "abort", before: atStep, plugin: []string{"abort", "NAME"}, request: action.Request{Action: "ro-abort"},
			ends: "aborted", after: func(s state) bool { return s.Abort && s.Phase == "Degraded" }},
		{name: "retry", before: atAborted, plugin: []string{"retry", "rollout", "NAME"}, request: action.Request{Action: "ro-retry"},
			ends: "at the first pause again", after: func(s state) bool { return !s.Abort && s.Phase == "Paused" && s.Step == 1 }},
		{name: "pause", before: atStep, plugin: []string{"pause", "NAME"}, request: action.Request{Action: "ro-pause"},
			ends: "paused by hand", after: func(s state) bool { return s.Paused && s.Phase == "Paused" }},
		{name: "resume", before: atPausedByHand, other: mergePatch(`{"spec":{"paused":false}}`), request: action.Request{Action: "ro-resume"},
			ends: "Healthy, not paused", after: func(s state) bool { return !s.Paused && s.Phase == "Healthy" }},
		{name: "restart", before: atHealthy, plugin: []string{"restart", "NAME"}, request: action.Request{Action: "ro-restart"},
			ends: "restarted, Healthy", after: func(s state) bool { return s.Restarted && s.Phase == "Healthy" }},
		{name: "set-image", before: atHealthy, plugin: []string{"set", "image", "NAME", "app=" + heldImage + ":v2"},
			request: action.Request{Action: "ro-set-image", Container: "app", Image: heldImage + ":v2"},
			ends:    ":v2 at the first pause", after: func(s state) bool { return s.Phase == "Paused" && s.Step == 1 && s.newest().Image == heldImage+":v2" }},
		{name: "scale", before: atHealthy, other: kubectlScale(2), request: action.Request{Action: "ro-scale", Replicas: 2},
			ends: "Healthy with 2 pods", after: func(s state) bool { return s.Phase == "Healthy" && s.Replicas == 2 && s.newest().Spec == 2 }},
		{name: "undo", before: atRevision3, plugin: []string{"undo", "NAME", "--to-revision=1"}, request: action.Request{Action: "ro-undo", Revision: 1},
			ends: "revision 1's :v1 as revision 4", after: func(s state) bool { return s.newest().Revision == "4" && s.newest().Image == heldImage+":v1" }},

		{name: "promote-aborted", before: atAborted, request: action.Request{Action: "ro-promote"}, refused: "is aborted"},
		{name: "retry-healthy", before: atHealthy, request: action.Request{Action: "ro-retry"}, refused: "not aborted"},
		{name: "resume-at-step", before: atStep, request: action.Request{Action: "ro-resume"}, refused: "not paused by hand"},
		{name: "abort-healthy", before: atHealthy, request: action.Request{Action: "ro-abort"}, refused: "nothing to abort"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			byRollscope := newRollout(t, c, "rs-"+tc.name, heldManifest("by-rollscope", heldImage+":v1"))
			var byPlugin rollout
			if tc.refused == "" {
				byPlugin = newRollout(t, c, "pl-"+tc.name, heldManifest("by-plugin", heldImage+":v1"))
			}
			for _, r := range []rollout{byRollscope, byPlugin} {
				if r.c == nil {
					continue
				}
				r.settle(t, "on its first revision")
				tc.before(t, r)
			}
			before := byRollscope.settle(t, "before the action")
			if byPlugin.c != nil {
				if other := byPlugin.settle(t, "before the action"); !other.equal(before) {
					t.Fatalf("the two Rollouts start apart: rollscope's %v, the plugin's %v", before, other)
				}
			}

			rs := record(t, c, byRollscope.ns, byRollscope.name)
			cl, err := kubernetes.NewForConfig(rs.config())
			if err != nil {
				t.Fatal(err)
			}
			dyn, err := dynamic.NewForConfig(rs.config())
			if err != nil {
				t.Fatal(err)
			}
			req := tc.request
			req.Namespace, req.Name = byRollscope.ns, byRollscope.name
			said, err := perform.New(perform.Config{Client: objects.WithDynamic(cl, dyn)}).Send(t.Context(), req)
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Errorf("rollscope's %s said %q, %v; want a refusal saying %q", req.Action, said, err, tc.refused)
				}
				if got := rs.sent(); len(got) != 0 {
					t.Errorf("rollscope's refused %s sent %v, want nothing", req.Action, got)
				}
				if after, err := byRollscope.readState(t.Context()); err != nil || !after.equal(before) {
					t.Errorf("after the refused %s the Rollout is %v (%v), want it as before: %v", req.Action, after, err, before)
				}
				return
			}
			if err != nil {
				t.Fatalf("rollscope's %s: %v", req.Action, err)
			}
			t.Logf("rollscope: %s", said)

			pl := record(t, c, byPlugin.ns, byPlugin.name)
			if tc.other != nil {
				if err := tc.other(t.Context(), pl.config(), byPlugin); err != nil {
					t.Fatal(err)
				}
			} else {
				args := []string{}
				for _, a := range tc.plugin {
					args = append(args, strings.ReplaceAll(a, "NAME", byPlugin.name))
				}
				args = append(args, "-n", byPlugin.ns, "--kubeconfig", pl.kubeconfig(t))
				out, err := exec.CommandContext(t.Context(), c.Argo.Build.Plugin(), args...).CombinedOutput()
				if err != nil {
					t.Fatalf("kubectl-argo-rollouts %v: %v\n%s", args, err, out)
				}
				t.Logf("the plugin: %s", strings.TrimSpace(string(out)))
			}

			want, got := pl.sent(), rs.sent()
			if len(want) == 0 {
				t.Fatalf("the plugin sent nothing")
			}
			if !slices.Equal(got, want) {
				t.Errorf("rollscope's %s sent\n%s\nthe plugin sent\n%s", req.Action, lines(got), lines(want))
			}
			t.Logf("rollscope sent\n%s", lines(got))

			// Both Rollouts end where the controller leaves them, the same.
			p := byPlugin.waitForState(t, "where the plugin's command leaves it: "+tc.ends, func(s state) bool { return s.settled && tc.after(s) })
			var last state
			byRollscope.c.Poll(t, "rollscope's Rollout where the plugin's is", func(ctx context.Context) (bool, string, error) {
				s, err := byRollscope.readState(ctx)
				if err != nil {
					return false, "", err
				}
				last = s
				return s.settled && tc.after(s) && s.equal(p), fmt.Sprintf("rollscope's %v, the plugin's %v", s, p), nil
			})
			t.Logf("both: %v", last)
		})
	}
}

func lines(ws []write) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString("  " + w.String() + "\n")
	}
	return b.String()
}

// mergePatch is `kubectl patch rollout NAME --type merge -p PATCH`, the
// command a resume's confirmation names: one merge patch of the Rollout.
func mergePatch(patch string) func(context.Context, *rest.Config, rollout) error {
	return func(ctx context.Context, cfg *rest.Config, r rollout) error {
		d, err := dynamic.NewForConfig(cfg)
		if err != nil {
			return err
		}
		_, err = d.Resource(e2etest.RolloutsGVR).Namespace(r.ns).Patch(ctx, r.name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		return err
	}
}

// kubectlScale is `kubectl scale rollout NAME --replicas=N`, through
// kubectl's own scaler (no preconditions: a patch of the scale
// subresource).
func kubectlScale(replicas uint) func(context.Context, *rest.Config, rollout) error {
	return func(ctx context.Context, cfg *rest.Config, r rollout) error {
		disc, err := discovery.NewDiscoveryClientForConfig(cfg)
		if err != nil {
			return err
		}
		mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))
		sc, err := scaleclient.NewForConfig(cfg, mapper, dynamic.LegacyAPIPathResolverFunc, scaleclient.NewDiscoveryScaleKindResolver(disc))
		if err != nil {
			return err
		}
		_, _, err = kubectlscale.NewScaler(sc).ScaleSimple(r.ns, r.name, nil, replicas, e2etest.RolloutsGVR, false)
		return err
	}
}
