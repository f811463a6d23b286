package argo

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"rollscope/test/e2e/e2etest"
)

// podHashLabel is the label Argo puts on a Rollout's ReplicaSets and pods,
// and on the Services it points at one of them.
const podHashLabel = "rollouts-pod-template-hash"

// rollout is one Rollout under test, in its own namespace.
type rollout struct {
	c        *e2etest.Cluster
	ns, name string
}

// newRollout creates namespace ns and the Rollout in manifest there.
func newRollout(t *testing.T, c *e2etest.Cluster, ns, manifest string) rollout {
	t.Helper()
	c.Namespace(t, ns)
	u := decode(t, manifest)
	if _, err := c.Argo.Dynamic.Resource(e2etest.RolloutsGVR).Namespace(ns).Create(t.Context(), u, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating rollout %s/%s: %v", ns, u.GetName(), err)
	}
	return rollout{c: c, ns: ns, name: u.GetName()}
}

// decode reads a YAML manifest into an unstructured object.
func decode(t *testing.T, manifest string) *unstructured.Unstructured {
	t.Helper()
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(manifest), &obj); err != nil {
		t.Fatalf("reading manifest: %v\n%s", err, manifest)
	}
	return &unstructured.Unstructured{Object: obj}
}

// setImage changes the app container's image, as `kubectl argo rollouts
// set image` does: a new pod template, so a new revision.
func (r rollout) setImage(t *testing.T, image string) {
	t.Helper()
	patch := fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":%q}]}}}}`, image)
	r.patch(t, patch)
}

// patch sends a merge patch to the Rollout, on the status subresource when
// subresources name it.
func (r rollout) patch(t *testing.T, patch string, subresources ...string) {
	t.Helper()
	_, err := r.c.Argo.Dynamic.Resource(e2etest.RolloutsGVR).Namespace(r.ns).Patch(t.Context(), r.name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}, subresources...)
	if err != nil {
		t.Fatalf("patching rollout %s/%s %v with %s: %v", r.ns, r.name, subresources, patch, err)
	}
}

// promote is what `kubectl argo rollouts promote` sends to a Rollout paused
// on a step: its pause conditions cleared, on the status subresource.
func (r rollout) promote(t *testing.T) {
	t.Helper()
	r.patch(t, `{"status":{"pauseConditions":null}}`, "status")
}

// abort is what `kubectl argo rollouts abort` sends.
func (r rollout) abort(t *testing.T) {
	t.Helper()
	r.patch(t, `{"status":{"abort":true}}`, "status")
}

// replicaSet is one of the Rollout's ReplicaSets as the API has it.
type replicaSet struct {
	Hash        string
	Spec, Ready int32
	Image       string
}

// snapshot is the Rollout's status and its ReplicaSets, read at once.
type snapshot struct {
	Phase, Message                      string
	Step                                int64 // -1: no current step
	PauseReasons                        []string
	Abort                               bool
	StableRS                            string
	CurrentPodHash                      string
	ActiveSelector                      string
	PreviewSelector                     string
	Replicas, Updated, Ready, Available int64
	RSs                                 []replicaSet // by hash
}

// rs is the ReplicaSet whose pod-template hash is hash (zero if none).
func (s snapshot) rs(hash string) replicaSet {
	for _, rs := range s.RSs {
		if rs.Hash == hash {
			return rs
		}
	}
	return replicaSet{}
}

// others are the ReplicaSets other than hashes'.
func (s snapshot) others(hashes ...string) []replicaSet {
	var out []replicaSet
	for _, rs := range s.RSs {
		if !slices.Contains(hashes, rs.Hash) {
			out = append(out, rs)
		}
	}
	return out
}

func (s snapshot) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "phase %q message %q step %d pause %v abort %v stable %s current %s", s.Phase, s.Message, s.Step, s.PauseReasons, s.Abort, s.StableRS, s.CurrentPodHash)
	if s.ActiveSelector != "" || s.PreviewSelector != "" {
		fmt.Fprintf(&b, " active %s preview %s", s.ActiveSelector, s.PreviewSelector)
	}
	fmt.Fprintf(&b, " replicas %d updated %d ready %d available %d; ReplicaSets:", s.Replicas, s.Updated, s.Ready, s.Available)
	for _, rs := range s.RSs {
		fmt.Fprintf(&b, " %s %s %d/%d", rs.Hash, rs.Image, rs.Ready, rs.Spec)
	}
	return b.String()
}

// read takes a snapshot of the Rollout and its ReplicaSets.
func (r rollout) read(ctx context.Context) (snapshot, error) {
	u, owned, err := r.get(ctx)
	if err != nil {
		return snapshot{}, err
	}
	var ro struct {
		Status struct {
			Phase, Message                                              string
			CurrentStepIndex                                            *int64
			PauseConditions                                             []struct{ Reason string }
			Abort                                                       bool
			StableRS                                                    string
			CurrentPodHash                                              string
			BlueGreen                                                   struct{ ActiveSelector, PreviewSelector string }
			Replicas, UpdatedReplicas, ReadyReplicas, AvailableReplicas int64
		}
	}
	if err := remarshal(u.Object, &ro); err != nil {
		return snapshot{}, err
	}
	st := ro.Status
	s := snapshot{Phase: st.Phase, Message: st.Message, Step: -1, Abort: st.Abort, StableRS: st.StableRS, CurrentPodHash: st.CurrentPodHash,
		ActiveSelector: st.BlueGreen.ActiveSelector, PreviewSelector: st.BlueGreen.PreviewSelector,
		Replicas: st.Replicas, Updated: st.UpdatedReplicas, Ready: st.ReadyReplicas, Available: st.AvailableReplicas}
	if st.CurrentStepIndex != nil {
		s.Step = *st.CurrentStepIndex
	}
	for _, p := range st.PauseConditions {
		s.PauseReasons = append(s.PauseReasons, p.Reason)
	}
	for _, rs := range owned {
		got := replicaSet{Hash: rs.Labels[podHashLabel], Ready: rs.Status.ReadyReplicas, Image: rs.Spec.Template.Spec.Containers[0].Image}
		if rs.Spec.Replicas != nil {
			got.Spec = *rs.Spec.Replicas
		}
		s.RSs = append(s.RSs, got)
	}
	slices.SortFunc(s.RSs, func(a, b replicaSet) int { return strings.Compare(a.Hash, b.Hash) })
	return s, nil
}

// remarshal converts an unstructured object into a typed view of it.
func remarshal(from any, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}

// get reads the Rollout and the ReplicaSets it controls.
func (r rollout) get(ctx context.Context) (*unstructured.Unstructured, []appsv1.ReplicaSet, error) {
	u, err := r.c.Argo.Dynamic.Resource(e2etest.RolloutsGVR).Namespace(r.ns).Get(ctx, r.name, metav1.GetOptions{})
	if err != nil {
		return nil, nil, err
	}
	list, err := r.c.Admin.AppsV1().ReplicaSets(r.ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, nil, err
	}
	var owned []appsv1.ReplicaSet
	for _, rs := range list.Items {
		if metav1.IsControlledBy(&rs, u) {
			owned = append(owned, rs)
		}
	}
	return u, owned, nil
}

// waitFor polls the Rollout until done says so of a snapshot, and returns
// that snapshot; a failing wait prints the last one.
func (r rollout) waitFor(t *testing.T, what string, done func(snapshot) bool) snapshot {
	t.Helper()
	return waitUntil(t, r, what, r.read, done)
}

// waitUntil polls the Rollout through read until done says so of what it
// read, and returns that; a failing wait prints the last one.
func waitUntil[S fmt.Stringer](t *testing.T, r rollout, what string, read func(context.Context) (S, error), done func(S) bool) S {
	t.Helper()
	var last S
	r.c.Poll(t, r.ns+"/"+r.name+": "+what, func(ctx context.Context) (bool, string, error) {
		s, err := read(ctx)
		if err != nil {
			return false, "", err
		}
		last = s
		return done(s), s.String(), nil
	})
	return last
}

// healthy is a Rollout fully on one ReplicaSet of want ready pods (the
// stable one, also the current one), every other ReplicaSet scaled to 0.
func healthy(want int32) func(snapshot) bool {
	return func(s snapshot) bool {
		if s.Phase != "Healthy" || s.StableRS == "" || s.StableRS != s.CurrentPodHash {
			return false
		}
		if rs := s.rs(s.StableRS); rs.Spec != want || rs.Ready != want {
			return false
		}
		for _, rs := range s.others(s.StableRS) {
			if rs.Spec != 0 {
				return false
			}
		}
		return true
	}
}
