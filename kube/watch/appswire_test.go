package watch

import (
	"context"
	"encoding/json"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/apitesting/fuzzer"
	"k8s.io/apimachinery/pkg/api/resource"
	metafuzzer "k8s.io/apimachinery/pkg/apis/meta/fuzzer"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"

	"rollscope/kube/objects"
)

// appsDecoder reads protobuf as the bridge's apps client does.
func appsDecoder(t testing.TB) runtime.Decoder {
	t.Helper()
	dec, err := runtime.NewClientNegotiator(newWireCodecs(scheme.Codecs.WithoutConversion(), nil, newTemplates()), appsv1.SchemeGroupVersion).Decoder(protobufMediaType, nil)
	if err != nil {
		t.Fatal(err)
	}
	return dec
}

// asServed is obj as an API server sends it in protobuf.
func asServed(t testing.TB, obj runtime.Object) []byte {
	t.Helper()
	info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), protobufMediaType)
	data, err := runtime.Encode(scheme.Codecs.EncoderForVersion(info.Serializer, appsv1.SchemeGroupVersion), obj)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// clientGos is what the console kept of data before appswire: client-go's
// decoding, then the transform.
func clientGos(t testing.TB, data []byte) runtime.Object {
	t.Helper()
	dec, err := runtime.NewClientNegotiator(scheme.Codecs.WithoutConversion(), appsv1.SchemeGroupVersion).Decoder(protobufMediaType, nil)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := runtime.Decode(dec, data)
	if err != nil {
		t.Fatalf("client-go cannot decode it: %v", err)
	}
	return trimmed(t, obj)
}

// trimmed is obj, or each of a list's items, through the transform.
func trimmed(t testing.TB, obj runtime.Object) runtime.Object {
	t.Helper()
	each := func(o any) {
		if _, err := trim(o); err != nil {
			t.Fatal(err)
		}
	}
	switch o := obj.(type) {
	case *appsv1.DeploymentList:
		for i := range o.Items {
			each(&o.Items[i])
		}
	case *appsv1.ReplicaSetList:
		for i := range o.Items {
			each(&o.Items[i])
		}
	default:
		each(o)
	}
	return obj
}

// requireClientGos fails unless the apps codec and the transform keep of
// data what client-go's codec and the transform kept.
func requireClientGos(t *testing.T, what string, dec runtime.Decoder, data []byte) runtime.Object {
	t.Helper()
	got, err := runtime.Decode(dec, data)
	if err != nil {
		t.Fatalf("%s: appswire cannot decode what client-go decodes: %v", what, err)
	}
	if want := clientGos(t, data); !reflect.DeepEqual(trimmed(t, got), want) {
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		i := 0
		for i < len(wj) && i < len(gj) && wj[i] == gj[i] {
			i++
		}
		from := max(i-200, 0)
		t.Fatalf("%s: appswire reads another object than client-go, from byte %d:\nclient-go …%.400s\nappswire  …%.400s", what, i, wj[from:], gj[from:])
	}
	return got
}

// rolling is a Deployment as an API server returns it mid-rollout: managed
// fields, kubectl's last-applied annotation, a template with resources and
// probes, status conditions.
func rolling() *appsv1.Deployment {
	replicas, surge, grace := int32(5), intstr.FromString("25%"), int64(30)
	t := metav1.Date(2026, 12, 7, 9, 0, 0, 0, metav1.Now().Location())
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{
			Name: "api", Namespace: "shop", UID: "6c0d1f1e", ResourceVersion: "4711", Generation: 3,
			CreationTimestamp: t,
			Labels:            map[string]string{"app": "api"},
			Annotations: map[string]string{"deployment.kubernetes.io/revision": "3", "kubernetes.io/change-cause": "set image api=api:v3",
				lastApplied: `{"apiVersion":"apps/v1","kind":"Deployment"}`},
			ManagedFields: []metav1.ManagedFieldsEntry{
				{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "apps/v1", Time: &t, FieldsType: "FieldsV1",
					FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:template":{"f:spec":{"f:containers":{}}}}}`)}},
				{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "apps/v1", Time: &t,
					FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:status":{"f:replicas":{}}}`)}, Subresource: "status"},
			},
		},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "api"}},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &surge}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "api"}, Annotations: map[string]string{"team": "shop"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "api", Image: "api:v3", Ports: []corev1.ContainerPort{{ContainerPort: 8080}},
					Env: []corev1.EnvVar{{Name: "MODE", Value: "live"}},
					Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
						corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")}},
					ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/ready", Port: intstr.FromInt32(8080), Scheme: "HTTP"}},
						PeriodSeconds: 5, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3},
					// The API server's defaults.
					TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: corev1.TerminationMessageReadFile,
					ImagePullPolicy: corev1.PullIfNotPresent,
				}}, RestartPolicy: corev1.RestartPolicyAlways, TerminationGracePeriodSeconds: &grace, DNSPolicy: corev1.DNSClusterFirst,
					SecurityContext: &corev1.PodSecurityContext{}, SchedulerName: corev1.DefaultSchedulerName},
			},
		},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 6, UpdatedReplicas: 2, ReadyReplicas: 4, AvailableReplicas: 4, UnavailableReplicas: 2,
			Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "ReplicaSetUpdated",
				LastUpdateTime: t, LastTransitionTime: t, Message: `ReplicaSet "api-7d4b9c" is progressing.`}}},
	}
}

// TestWireAppsAreClientGos: a Deployment and a ReplicaSet as an API server
// sends them, and their lists, decode through the apps client's codecs to
// exactly client-go's objects but for the managed fields the transform
// drops; the kinds it does not read (a StatefulSet, an error Status) are
// client-go's own.
func TestWireAppsAreClientGos(t *testing.T) {
	dec := appsDecoder(t)
	d := rolling()
	read := func(what string, obj runtime.Object) runtime.Object {
		t.Helper()
		got := requireClientGos(t, what, dec, asServed(t, obj))
		// Stepped over, not decoded and dropped: the codec read it.
		if m, ok := got.(metav1.Object); ok && m.GetManagedFields() != nil {
			t.Errorf("%s: the managed fields were decoded", what)
		}
		return got
	}
	read("a rolling Deployment", d)
	rs := &appsv1.ReplicaSet{ObjectMeta: *d.ObjectMeta.DeepCopy(), Spec: appsv1.ReplicaSetSpec{Replicas: d.Spec.Replicas, Selector: d.Spec.Selector,
		Template: *d.Spec.Template.DeepCopy()}, Status: appsv1.ReplicaSetStatus{Replicas: 2, ReadyReplicas: 1, ObservedGeneration: 1}}
	rs.Name = "api-7d4b9c"
	rs.Spec.Template.Labels["pod-template-hash"] = "7d4b9c"
	read("a ReplicaSet", rs)
	empty := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "bare"}}
	read("a Deployment with no spec", empty)

	item := d.DeepCopy()
	item.TypeMeta = metav1.TypeMeta{}
	got := requireClientGos(t, "a DeploymentList", dec, asServed(t, &appsv1.DeploymentList{
		ListMeta: metav1.ListMeta{ResourceVersion: "9", Continue: "next"}, Items: []appsv1.Deployment{*item, *empty}}))
	if l := got.(*appsv1.DeploymentList); len(l.Items) != 2 || l.Continue != "next" || l.Items[0].ManagedFields != nil {
		t.Errorf("the list lost its items or continue token, or was decoded whole: %+v", l)
	}
	rsList := requireClientGos(t, "a ReplicaSetList", dec, asServed(t, &appsv1.ReplicaSetList{Items: []appsv1.ReplicaSet{*rs}}))
	again := read("the ReplicaSet again", rs).(*appsv1.ReplicaSet)
	if &rsList.(*appsv1.ReplicaSetList).Items[0].Spec.Template.Spec.Containers[0] != &again.Spec.Template.Spec.Containers[0] {
		t.Error("a ReplicaSet listed and then watched decoded its template twice")
	}
	requireClientGos(t, "an empty list", dec, asServed(t, &appsv1.ReplicaSetList{ListMeta: metav1.ListMeta{ResourceVersion: "10"}}))

	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "db", ManagedFields: d.ManagedFields}, Spec: appsv1.StatefulSetSpec{Template: d.Spec.Template}}
	obj, err := runtime.Decode(dec, asServed(t, sts))
	if err != nil || len(obj.(*appsv1.StatefulSet).ManagedFields) != 2 {
		t.Errorf("a StatefulSet is client-go's to decode, managed fields and all: %+v, %v", obj, err)
	}
}

// TestWireAppsShareAnUnchangedTemplate: a status write decodes to the
// template the version before it holds, the same maps and slices, and a new
// template to its own.
func TestWireAppsShareAnUnchangedTemplate(t *testing.T) {
	dec := appsDecoder(t)
	d := rolling()
	first := requireClientGos(t, "version 1", dec, asServed(t, d)).(*appsv1.Deployment)
	d.Status.UpdatedReplicas, d.ResourceVersion = 3, "4712"
	second := requireClientGos(t, "a status write", dec, asServed(t, d)).(*appsv1.Deployment)
	if &first.Spec.Template.Spec.Containers[0] != &second.Spec.Template.Spec.Containers[0] {
		t.Error("a status write decoded its template again")
	}
	d.Spec.Template.Spec.Containers[0].Image = "api:v4"
	third := requireClientGos(t, "a new template", dec, asServed(t, d)).(*appsv1.Deployment)
	if third.Spec.Template.Spec.Containers[0].Image != "api:v4" || second.Spec.Template.Spec.Containers[0].Image != "api:v3" {
		t.Errorf("the versions' images are %q and %q, want api:v3 and api:v4",
			second.Spec.Template.Spec.Containers[0].Image, third.Spec.Template.Spec.Containers[0].Image)
	}
}

// TestWireAppsForgetTemplatesNoOneCarries: the templates kept are bounded;
// a template still in use survives the turn.
func TestWireAppsForgetTemplatesNoOneCarries(t *testing.T) {
	tmpl := newTemplates()
	inUse := []byte{0x0a, 0x00}
	if _, err := tmpl.template(inUse); err != nil {
		t.Fatal(err)
	}
	for i := range 3 * templatesKept {
		b, _ := (&corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Name: string(rune('a'+i%26)) + string(rune(i))}}).Marshal()
		if _, err := tmpl.template(b); err != nil {
			t.Fatal(err)
		}
		if i%templatesKept == 0 {
			_, _ = tmpl.template(inUse)
		}
	}
	if n := len(tmpl.now) + len(tmpl.old); n > 2*templatesKept {
		t.Errorf("%d templates kept, want at most %d", n, 2*templatesKept)
	}
	if _, ok := tmpl.now[string(inUse)]; !ok {
		if _, ok := tmpl.old[string(inUse)]; !ok {
			t.Error("a template read every turn was forgotten")
		}
	}
}

// TestWireRandomAppsAreClientGos fills every field of Deployments and
// ReplicaSets at random, as apimachinery's round-trip tests do; fields
// repeated and unknown fields from a newer server decode as client-go
// decodes them.
func TestWireRandomAppsAreClientGos(t *testing.T) {
	f := fuzzer.FuzzerFor(metafuzzer.Funcs, rand.NewSource(35), scheme.Codecs).NilChance(0.3).NumElements(0, 3)
	dec := appsDecoder(t)
	for i := range 300 {
		d, rs := &appsv1.Deployment{}, &appsv1.ReplicaSet{}
		f.Fill(d)
		f.Fill(rs)
		requireClientGos(t, "a random Deployment", dec, asServed(t, d))
		requireClientGos(t, "a random ReplicaSet", dec, asServed(t, rs))
		if i%50 != 0 {
			continue
		}
		// The same object with its metadata and its template twice:
		// client-go merges them, and so must the console.
		meta, _ := d.ObjectMeta.Marshal()
		spec, _ := d.Spec.Marshal()
		tmpl, _ := d.Spec.Template.Marshal()
		status, _ := d.Status.Marshal()
		var b []byte
		b = appendMessage(b, 1, meta)
		b = appendMessage(b, 2, appendMessage(appendUnknown(spec), 3, tmpl))
		b = appendMessage(b, 1, meta)
		b = appendUnknown(appendMessage(b, 3, status))
		requireClientGos(t, "a Deployment with fields repeated and unknown", dec, envelopeOf(t, "Deployment", b))
	}
}

// envelopeOf wraps a message as the API server does.
func envelopeOf(t testing.TB, kind string, msg []byte) []byte {
	t.Helper()
	u := runtime.Unknown{TypeMeta: runtime.TypeMeta{APIVersion: "apps/v1", Kind: kind}, Raw: msg}
	b, err := u.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return append(append([]byte(nil), protobufPrefix...), b...)
}

// BenchmarkDecodeDeploymentStatusWrite decodes a rolling Deployment's status
// write as a watch event carries it, in protobuf, through client-go's codec
// and the transform (before) and through the bridge's apps codec, whose
// template was decoded with the version before (after).
//
//	go test ./kube/watch -run '^$' -bench DecodeDeploymentStatusWrite -benchmem
func BenchmarkDecodeDeploymentStatusWrite(b *testing.B) {
	base := scheme.Codecs.WithoutConversion()
	benchmarkDecoders(b, appsv1.SchemeGroupVersion, asServed(b, rolling()), []decoderCase{
		{"client-go+transform", base, trim},
		{"appswire", newWireCodecs(base, nil, newTemplates()), trim},
	})
}

// TestTheControllersClientReadsAppsFromTheWire: the client the console's
// controllers watch through decodes Deployments as the bridge does, and
// still reaches custom resources.
func TestTheControllersClientReadsAppsFromTheWire(t *testing.T) {
	item := rolling()
	item.TypeMeta = metav1.TypeMeta{}
	body := asServed(t, &appsv1.DeploymentList{Items: []appsv1.Deployment{*item}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", protobufMediaType)
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	cfg := &rest.Config{Host: srv.URL, ContentConfig: rest.ContentConfig{ContentType: protobufMediaType}}
	typed, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	client, err := AppsFromWire(objects.WithDynamic(typed, dyn), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := objects.DynamicOf(client); err != nil {
		t.Errorf("the controllers' client lost custom resources: %v", err)
	}
	list, err := client.AppsV1().Deployments("shop").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].Spec.Template.Spec.Containers[0].Image != "api:v3" || list.Items[0].ManagedFields != nil {
		t.Errorf("the Deployment was not read from the wire as the bridge reads it: %+v", list.Items)
	}
}
