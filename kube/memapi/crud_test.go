package memapi_test

import (
	"errors"
	"regexp"
	"strconv"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"

	"rollscope/kube/memapi"
)

func TestErrorsReadAsUpstream(t *testing.T) {
	cases := []struct {
		name   string
		call   func(f *fixture) error
		reason metav1.StatusReason
		msg    string
	}{
		{
			name: "get a missing deployment",
			call: func(f *fixture) error {
				_, err := f.client.AppsV1().Deployments("default").Get(ctx, "x", metav1.GetOptions{})
				return err
			},
			reason: metav1.StatusReasonNotFound, msg: `deployments.apps "x" not found`,
		},
		{
			name: "get a missing pod",
			call: func(f *fixture) error {
				_, err := f.client.CoreV1().Pods("default").Get(ctx, "x", metav1.GetOptions{})
				return err
			},
			reason: metav1.StatusReasonNotFound, msg: `pods "x" not found`,
		},
		{
			name: "create twice",
			call: func(f *fixture) error {
				_, err := f.client.AppsV1().Deployments("default").Create(ctx, deployment("web", 1), metav1.CreateOptions{})
				return err
			},
			reason: metav1.StatusReasonAlreadyExists, msg: `deployments.apps "web" already exists`,
		},
		{
			name: "update with a stale resourceVersion",
			call: func(f *fixture) error {
				d := deployment("web", 5)
				d.ResourceVersion = "1"
				_, err := f.client.AppsV1().Deployments("default").Update(ctx, d, metav1.UpdateOptions{})
				return err
			},
			reason: metav1.StatusReasonConflict,
			msg:    `Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again`,
		},
		{
			name: "update a missing object",
			call: func(f *fixture) error {
				_, err := f.client.AppsV1().Deployments("default").Update(ctx, deployment("other", 1), metav1.UpdateOptions{})
				return err
			},
			reason: metav1.StatusReasonNotFound, msg: `deployments.apps "other" not found`,
		},
		{
			name: "create in a namespace that does not exist",
			call: func(f *fixture) error {
				_, err := f.client.AppsV1().Deployments("nope").Create(ctx, &appsv1.Deployment{
					ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: deployment("web", 1).Spec,
				}, metav1.CreateOptions{})
				return err
			},
			reason: metav1.StatusReasonNotFound, msg: `namespaces "nope" not found`,
		},
		{
			name: "create with a namespace other than the request's",
			call: func(f *fixture) error {
				_, err := f.client.CoreV1().Pods("kube-system").Create(ctx, pod("p", "a"), metav1.CreateOptions{})
				return err
			},
			reason: metav1.StatusReasonBadRequest, msg: `the namespace of the provided object does not match the namespace sent on the request`,
		},
		{
			name: "create with a resourceVersion",
			call: func(f *fixture) error {
				p := pod("p", "a")
				p.ResourceVersion = "3"
				_, err := f.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{})
				return err
			},
			reason: metav1.StatusReasonInternalError, msg: `Internal error occurred: resourceVersion should not be set on objects to be created`,
		},
		{
			name: "create without a name",
			call: func(f *fixture) error {
				_, err := f.client.CoreV1().Pods("default").Create(ctx, pod("", "a"), metav1.CreateOptions{})
				return err
			},
			reason: metav1.StatusReasonInvalid, msg: `Pod "" is invalid: metadata.name: Required value: name or generateName is required`,
		},
		{
			name: "delete a missing object",
			call: func(f *fixture) error {
				return f.client.CoreV1().ConfigMaps("default").Delete(ctx, "x", metav1.DeleteOptions{})
			},
			reason: metav1.StatusReasonNotFound, msg: `configmaps "x" not found`,
		},
		{
			name: "delete the default namespace",
			call: func(f *fixture) error {
				return f.client.CoreV1().Namespaces().Delete(ctx, "default", metav1.DeleteOptions{})
			},
			reason: metav1.StatusReasonForbidden, msg: `namespaces "default" is forbidden: this namespace may not be deleted`,
		},
		{
			name: "delete with a stale resourceVersion precondition",
			call: func(f *fixture) error {
				rv := "1"
				return f.client.AppsV1().Deployments("default").Delete(ctx, "web", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &rv}})
			},
			reason: metav1.StatusReasonConflict,
			msg:    `Operation cannot be fulfilled on deployments.apps "web": StorageError: invalid object, Code: 4, Key: /registry/deployments/default/web, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: 4`,
		},
		{
			name: "list with an unsupported field selector",
			call: func(f *fixture) error {
				_, err := f.client.AppsV1().Deployments("default").List(ctx, metav1.ListOptions{FieldSelector: "spec.paused=true"})
				return err
			},
			reason: metav1.StatusReasonBadRequest, msg: `field label not supported: spec.paused`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			must(f.client.AppsV1().Deployments("default").Create(ctx, deployment("web", 1), metav1.CreateOptions{}))(t)
			err := tc.call(f)
			var status apierrors.APIStatus
			if !errors.As(err, &status) {
				t.Fatalf("got %v, want a %s API error", err, tc.reason)
			}
			if got := apierrors.ReasonForError(err); got != tc.reason {
				t.Errorf("reason = %s, want %s", got, tc.reason)
			}
			if err.Error() != tc.msg {
				t.Errorf("message\n got: %s\nwant: %s", err, tc.msg)
			}
		})
	}
}

func TestEveryWriteBumpsTheResourceVersion(t *testing.T) {
	f := newFixture(t)
	cms := f.client.CoreV1().ConfigMaps("default")
	start := f.cluster.ResourceVersion()
	if start != 3 {
		t.Fatalf("a new cluster has committed its 3 namespaces: resourceVersion = %d, want 3", start)
	}
	cm := must(cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}}, metav1.CreateOptions{}))(t)
	if cm.ResourceVersion != "4" || f.cluster.ResourceVersion() != 4 {
		t.Fatalf("after create: object rv %s, cluster rv %d; want 4 and 4", cm.ResourceVersion, f.cluster.ResourceVersion())
	}

	cm.Data = map[string]string{"k": "v"}
	cm = must(cms.Update(ctx, cm, metav1.UpdateOptions{}))(t)
	if cm.ResourceVersion != "5" {
		t.Fatalf("after update: rv %s, want 5", cm.ResourceVersion)
	}

	// An update without a resourceVersion is unconditional.
	cm.ResourceVersion = ""
	cm.Data["k"] = "w"
	cm = must(cms.Update(ctx, cm, metav1.UpdateOptions{}))(t)
	if cm.ResourceVersion != "6" || cm.Data["k"] != "w" {
		t.Fatalf("unconditional update: rv %s data %v", cm.ResourceVersion, cm.Data)
	}

	// A write that changes nothing is not committed, as on a real server.
	same := must(cms.Update(ctx, cm, metav1.UpdateOptions{}))(t)
	if same.ResourceVersion != "6" || f.cluster.ResourceVersion() != 6 {
		t.Fatalf("no-op update: rv %s, cluster %d; want 6 and 6", same.ResourceVersion, f.cluster.ResourceVersion())
	}

	list := must(cms.List(ctx, metav1.ListOptions{}))(t)
	if list.ResourceVersion != "6" {
		t.Fatalf("list resourceVersion %q, want 6", list.ResourceVersion)
	}
	noErr(t, cms.Delete(ctx, "c", metav1.DeleteOptions{}))
	if f.cluster.ResourceVersion() != 7 {
		t.Fatalf("after delete: cluster rv %d, want 7", f.cluster.ResourceVersion())
	}
}

var generatedName = regexp.MustCompile(`^web-[bcdfghjklmnpqrstvwxz2456789]{5}$`)

func TestGenerateNameAndUIDsAreReproducible(t *testing.T) {
	run := func(seed int64) (names, uids []string) {
		c := memapi.New(memapi.Options{Seed: seed})
		for range 5 {
			p := pod("", "web")
			p.GenerateName = "web-"
			got, err := c.Client().CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, got.Name)
			uids = append(uids, string(got.UID))
		}
		return names, uids
	}
	names1, uids1 := run(42)
	names2, uids2 := run(42)
	names3, _ := run(43)
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for i := range names1 {
		if !generatedName.MatchString(names1[i]) {
			t.Errorf("generated name %q is not web- plus 5 characters of the upstream alphabet", names1[i])
		}
		if !uuid.MatchString(uids1[i]) {
			t.Errorf("uid %q does not look like a UUID", uids1[i])
		}
		if seen[uids1[i]] || seen[names1[i]] {
			t.Errorf("duplicate name or uid at %d", i)
		}
		seen[uids1[i]], seen[names1[i]] = true, true
		if names1[i] != names2[i] || uids1[i] != uids2[i] {
			t.Errorf("same seed, different result at %d: %s/%s vs %s/%s", i, names1[i], uids1[i], names2[i], uids2[i])
		}
	}
	if slicesEqual(names1, names3) {
		t.Errorf("seeds 42 and 43 generated the same names %v", names1)
	}
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestCreationTimestampComesFromTheClock(t *testing.T) {
	f := newFixture(t)
	f.clock.Step(1500e6) // 1.5s: stored timestamps keep whole seconds
	p := must(f.client.CoreV1().Pods("default").Create(ctx, pod("p", "a"), metav1.CreateOptions{}))(t)
	if want := epoch.Add(1e9); !p.CreationTimestamp.Time.Equal(want) {
		t.Fatalf("creationTimestamp %v, want %v", p.CreationTimestamp, want)
	}
}

func TestListSelectors(t *testing.T) {
	f := newFixture(t)
	f.runningPod(t, "a1", "a", "node-1", true)
	f.runningPod(t, "a2", "a", "node-2", true)
	must(f.client.CoreV1().Pods("default").Create(ctx, pod("b1", "b"), metav1.CreateOptions{}))(t)
	must(f.client.CoreV1().Events("default").Create(ctx, &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: "e1"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "a1", Namespace: "default", UID: "u1"}, Reason: "Started",
	}, metav1.CreateOptions{}))(t)
	must(f.client.CoreV1().Events("default").Create(ctx, &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: "e2"},
		InvolvedObject: corev1.ObjectReference{Kind: "Node", Name: "node-1"}, Reason: "Ready",
	}, metav1.CreateOptions{}))(t)

	pods := func(opts metav1.ListOptions) []string {
		l := must(f.client.CoreV1().Pods("").List(ctx, opts))(t)
		var names []string
		for _, p := range l.Items {
			names = append(names, p.Name)
		}
		return names
	}
	cases := []struct {
		opts metav1.ListOptions
		want []string
	}{
		{metav1.ListOptions{}, []string{"a1", "a2", "b1"}},
		{metav1.ListOptions{LabelSelector: "app=a"}, []string{"a1", "a2"}},
		{metav1.ListOptions{LabelSelector: "app in (b)"}, []string{"b1"}},
		{metav1.ListOptions{FieldSelector: "metadata.name=a2"}, []string{"a2"}},
		{metav1.ListOptions{FieldSelector: "spec.nodeName=node-1"}, []string{"a1"}},
		{metav1.ListOptions{FieldSelector: "spec.nodeName="}, []string{"b1"}},
		{metav1.ListOptions{FieldSelector: "status.phase=Running"}, []string{"a1", "a2"}},
		{metav1.ListOptions{FieldSelector: "status.phase!=Running,metadata.namespace=default"}, []string{"b1"}},
		{metav1.ListOptions{LabelSelector: "app=a", FieldSelector: "spec.nodeName=node-2"}, []string{"a2"}},
	}
	for _, tc := range cases {
		if got := pods(tc.opts); !slicesEqual(got, tc.want) {
			t.Errorf("pods with %+v = %v, want %v", tc.opts, got, tc.want)
		}
	}

	for sel, want := range map[string]string{
		"involvedObject.kind=Pod,involvedObject.name=a1": "e1",
		"involvedObject.uid=u1":                          "e1",
		"involvedObject.kind=Node":                       "e2",
		"reason=Ready":                                   "e2",
	} {
		l := must(f.client.CoreV1().Events("default").List(ctx, metav1.ListOptions{FieldSelector: sel}))(t)
		if len(l.Items) != 1 || l.Items[0].Name != want {
			t.Errorf("events with %s: got %d items, want just %s", sel, len(l.Items), want)
		}
	}
}

func TestReturnedObjectsAreCopies(t *testing.T) {
	f := newFixture(t)
	var seen []*corev1.ConfigMap
	cancel := f.cluster.Subscribe(func(ev watch.Event) {
		if cm, ok := ev.Object.(*corev1.ConfigMap); ok {
			seen = append(seen, cm)
		}
	})
	defer cancel()
	cms := f.client.CoreV1().ConfigMaps("default")
	cm := must(cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Data: map[string]string{"k": "1"}}, metav1.CreateOptions{}))(t)
	cm.Data["k"] = "changed by the caller"
	if got := must(cms.Get(ctx, "c", metav1.GetOptions{}))(t); got.Data["k"] != "1" {
		t.Fatalf("changing a returned object changed the store: %v", got.Data)
	}
	cm.Data["k"] = "2"
	must(cms.Update(ctx, cm, metav1.UpdateOptions{}))(t)
	if len(seen) != 2 || seen[0].Data["k"] != "1" || seen[0].ResourceVersion != "4" || seen[1].Data["k"] != "2" {
		t.Fatalf("subscribers must get every stored version unchanged, got %d events", len(seen))
	}
}

func TestSubscribeSeesCommitsInOrder(t *testing.T) {
	f := newFixture(t)
	type seen struct {
		typ watch.EventType
		rv  string
	}
	var got []seen
	var cancel func()
	cancel = f.cluster.Subscribe(func(ev watch.Event) {
		rv := ev.Object.(interface{ GetResourceVersion() string }).GetResourceVersion()
		got = append(got, seen{ev.Type, rv})
		if ev.Type == watch.Deleted {
			cancel() // allowed from inside the callback
		}
	})
	cms := f.client.CoreV1().ConfigMaps("default")
	cm := must(cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}}, metav1.CreateOptions{}))(t)
	cm.Labels = map[string]string{"x": "y"}
	must(cms.Update(ctx, cm, metav1.UpdateOptions{}))(t)
	noErr(t, cms.Delete(ctx, "c", metav1.DeleteOptions{}))
	must(cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "after-cancel"}}, metav1.CreateOptions{}))(t)

	want := []seen{{watch.Added, "4"}, {watch.Modified, "5"}, {watch.Deleted, "6"}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestDeleteCollection(t *testing.T) {
	f := newFixture(t)
	for i := range 4 {
		app := "a"
		if i%2 == 1 {
			app = "b"
		}
		must(f.client.CoreV1().Pods("default").Create(ctx, pod("p"+strconv.Itoa(i), app), metav1.CreateOptions{}))(t)
	}
	noErr(t, f.client.CoreV1().Pods("default").DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "app=a"}))
	l := must(f.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{}))(t)
	if len(l.Items) != 2 || l.Items[0].Name != "p1" || l.Items[1].Name != "p3" {
		t.Fatalf("left %d pods, want p1 and p3", len(l.Items))
	}
}

func TestUnknownResourceIsNotFound(t *testing.T) {
	f := newFixture(t)
	_, err := f.client.BatchV1().Jobs("default").Get(ctx, "j", metav1.GetOptions{})
	if !apierrors.IsNotFound(err) {
		t.Fatalf("got %v, want NotFound for a resource the embedded cluster does not serve", err)
	}
}

func TestTheFakeActionLogStaysBounded(t *testing.T) {
	f := newFixture(t)
	recorder, ok := f.client.(interface{ Actions() []clienttesting.Action })
	if !ok {
		t.Skip("the client does not expose its action log")
	}
	for range 5000 {
		_, _ = f.client.CoreV1().Pods("default").Get(ctx, "p", metav1.GetOptions{})
	}
	eventually(t, "the action log was cleared", func() bool { return len(recorder.Actions()) <= 2048 })
}

// A real client posts a Binding to the namespace of the pods client, and the
// API server fills in a Binding that names none; so does the embedded one.
func TestBindingTakesTheClientsNamespace(t *testing.T) {
	f := newFixture(t)
	must(f.client.CoreV1().Pods("default").Create(ctx, pod("p", "a"), metav1.CreateOptions{}))(t)
	err := f.client.CoreV1().Pods("default").Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Target: corev1.ObjectReference{Name: "n1"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("binding without a namespace: %v", err)
	}
	p := must(f.client.CoreV1().Pods("default").Get(ctx, "p", metav1.GetOptions{}))(t)
	if p.Spec.NodeName != "n1" {
		t.Fatalf("pod bound to %q, want n1", p.Spec.NodeName)
	}
}

func TestRequestOptionsAreValidated(t *testing.T) {
	f := newFixture(t)
	must(f.client.CoreV1().Pods("default").Create(ctx, pod("p", "a"), metav1.CreateOptions{}))(t)
	bad := metav1.DeletionPropagation("Sideways")
	err := f.client.CoreV1().Pods("default").Delete(ctx, "p", metav1.DeleteOptions{PropagationPolicy: &bad})
	if want := `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"`; err == nil || err.Error() != want {
		t.Fatalf("bad propagation policy:\n got %v\nwant %s", err, want)
	}
	if _, err := f.client.CoreV1().Pods("default").Create(ctx, pod("q", "a"), metav1.CreateOptions{DryRun: []string{"Some"}}); !apierrors.IsInvalid(err) {
		t.Fatalf("bad dryRun value: %v", err)
	}
}
