package watch

import (
	"context"
	"encoding/json"
	"math/rand"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/apitesting/fuzzer"
	metafuzzer "k8s.io/apimachinery/pkg/apis/meta/fuzzer"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
)

// wantSlim is what the console kept of b before podwire: client-go's full
// decoding, then the transform.
func wantSlim(t testing.TB, b []byte) *corev1.Pod {
	t.Helper()
	full := &corev1.Pod{}
	if err := full.Unmarshal(b); err != nil {
		t.Fatalf("client-go cannot decode the pod: %v", err)
	}
	return slimPod(full)
}

func wireDecode(t testing.TB, b []byte) *corev1.Pod {
	t.Helper()
	p := &corev1.Pod{}
	if err := decodePod(b, p); err != nil {
		t.Fatalf("podwire cannot decode a pod client-go decodes: %v", err)
	}
	return p
}

func marshal(t testing.TB, p *corev1.Pod) []byte {
	t.Helper()
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// requireSame fails unless podwire reads b as slimPod keeps it.
func requireSame(t *testing.T, what string, b []byte) {
	t.Helper()
	want, got := wantSlim(t, b), wireDecode(t, b)
	if !reflect.DeepEqual(want, got) {
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		t.Fatalf("%s: podwire reads another pod than the transform keeps:\nslimPod %s\npodwire %s", what, wj, gj)
	}
}

// scenarioPods collects every version of every pod the embedded kubelet and
// controllers write while sc runs for three virtual minutes.
func scenarioPods(t *testing.T, sc *scenario.Scenario) []*corev1.Pod {
	clock := sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	var pods []*corev1.Pod
	observe := func(_ time.Time, ev watch.Event) {
		if p, ok := ev.Object.(*corev1.Pod); ok {
			pods = append(pods, p.DeepCopy())
		}
	}
	c, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{Observers: []sim.Observer{observe}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background(), 3*time.Minute); err != nil {
		t.Fatal(err)
	}
	return pods
}

// TestWirePodIsSlimPod: for every pod the slim test's scenarios make
// (running, pending, unschedulable, crash-looping, image-pull back-off,
// terminating, init containers, sidecars, two containers, StatefulSet,
// DaemonSet, ReplicationController and canary pods) and for a pod as a real
// API server returns it, podwire's pod is exactly slimPod of client-go's.
func TestWirePodIsSlimPod(t *testing.T) {
	scenarios := slimScenarios(t)
	met := map[string]bool{}
	owners := map[string]bool{}
	for _, sc := range scenarios {
		pods := scenarioPods(t, sc)
		if len(pods) == 0 {
			t.Fatalf("%s made no pods", sc.Name)
		}
		for _, p := range pods {
			requireSame(t, sc.Name+" pod "+p.Name+"@"+p.ResourceVersion, marshal(t, p))
			for _, k := range podKinds(p) {
				met[k] = true
			}
			if r := metav1.GetControllerOf(p); r != nil {
				owners[r.Kind] = true
			}
			if p.Spec.NodeName == "" && p.Spec.Affinity != nil {
				met["pinned daemon pod"] = true
			}
		}
	}
	for _, want := range []string{"ready", "pending", "unschedulable", "CrashLoopBackOff", "ImagePullBackOff",
		"terminating", "init containers", "sidecar", "two containers", "last terminated", "pinned daemon pod"} {
		if !met[want] {
			t.Errorf("no %s pod was compared", want)
		}
	}
	for _, kind := range []string{"ReplicaSet", "StatefulSet", "DaemonSet", "ReplicationController"} {
		if !owners[kind] {
			t.Errorf("no pod of a %s was compared", kind)
		}
	}

	real := &corev1.Pod{}
	if err := json.Unmarshal([]byte(realPod), real); err != nil {
		t.Fatal(err)
	}
	requireSame(t, "a real API server's pod", marshal(t, real))
}

// TestWireRandomPodIsSlimPod fills every field of pods at random, as
// apimachinery's round-trip tests do: whatever a pod holds, podwire keeps
// what slimPod keeps.
func TestWireRandomPodIsSlimPod(t *testing.T) {
	f := fuzzer.FuzzerFor(metafuzzer.Funcs, rand.NewSource(17), scheme.Codecs).NilChance(0.3).NumElements(0, 3)
	r := rand.New(rand.NewSource(18))
	controllers := 0
	for i := range 1000 {
		p := &corev1.Pod{}
		f.Fill(p)
		if r.Intn(2) == 0 {
			p.Spec.NodeName = "" // so that a node affinity is kept
		}
		if len(p.OwnerReferences) > 0 && r.Intn(2) == 0 {
			yes := true
			p.OwnerReferences[r.Intn(len(p.OwnerReferences))].Controller = &yes
		}
		if metav1.GetControllerOf(p) != nil {
			controllers++
		}
		requireSame(t, "random pod "+string(rune('0'+i%10)), marshal(t, p))
	}
	if controllers == 0 {
		t.Error("no random pod had a controller")
	}
}

// appendField appends an unknown field of every wire type: what a newer API
// server may send.
func appendUnknown(b []byte) []byte {
	b = append(b, 0xb8, 0x3e, 0x2a)                   // field 999, varint 42
	b = append(b, 0xc1, 0x3e, 1, 2, 3, 4, 5, 6, 7, 8) // field 1000, fixed64
	b = append(b, 0xcd, 0x3e, 1, 2, 3, 4)             // field 1001, fixed32
	b = append(b, 0xd2, 0x3e, 3, 'n', 'e', 'w')       // field 1002, bytes "new"
	// field 1003, a group holding a varint, closed by its end group
	b = append(b, 0xdb, 0x3e, 0x08, 0x01, 0xdc, 0x3e)
	return b
}

func appendMessage(b []byte, field byte, msg []byte) []byte {
	b = append(b, field<<3|2)
	n := uint64(len(msg))
	for n >= 0x80 {
		b = append(b, byte(n)|0x80)
		n >>= 7
	}
	return append(append(b, byte(n)), msg...)
}

// TestWireSkipsUnknownFields: fields the console does not know, at the
// pod's level and inside its metadata, spec and status, are stepped over.
func TestWireSkipsUnknownFields(t *testing.T) {
	real := &corev1.Pod{}
	if err := json.Unmarshal([]byte(realPod), real); err != nil {
		t.Fatal(err)
	}
	meta, err := real.ObjectMeta.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := real.Spec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	status, err := real.Status.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	b = appendMessage(b, 1, appendUnknown(meta))
	b = appendUnknown(b)
	b = appendMessage(b, 2, appendUnknown(spec))
	b = appendMessage(b, 3, appendUnknown(status))
	b = appendUnknown(b)
	requireSame(t, "a pod with fields from a newer server", b)
	if got := wireDecode(t, b); got.Name != real.Name || got.Status.ContainerStatuses[0].Image != real.Status.ContainerStatuses[0].Image {
		t.Errorf("the pod lost what it shows: %+v", got)
	}
}

// TestWirePodListIsSlimPods: a list keeps its resourceVersion and continue
// token, which the informer resumes from, and slim items.
func TestWirePodListIsSlimPods(t *testing.T) {
	f := fuzzer.FuzzerFor(metafuzzer.Funcs, rand.NewSource(3), scheme.Codecs).NilChance(0.2).NumElements(1, 2)
	full := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "812", Continue: "next-page", RemainingItemCount: ptrTo(int64(40))}}
	for range 25 {
		p := corev1.Pod{}
		f.Fill(&p)
		full.Items = append(full.Items, p)
	}
	b, err := full.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	ref := &corev1.PodList{}
	if err := ref.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	want := &corev1.PodList{ListMeta: ref.ListMeta}
	for i := range ref.Items {
		want.Items = append(want.Items, *slimPod(&ref.Items[i]))
	}
	got := &corev1.PodList{}
	if err := decodePodList(b, got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("podwire's list differs from the slimmed list:\nwant %+v\ngot  %+v", want.ListMeta, got.ListMeta)
	}
	if got.ResourceVersion != "812" || got.Continue != "next-page" || len(got.Items) != 25 {
		t.Errorf("list lost its position: %+v, %d items", got.ListMeta, len(got.Items))
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestWireKeepsTheEndOfInitialEvents: a streaming list ends with a bookmark
// whose annotation client-go's reflector waits for; without it the pod
// informer would never sync.
func TestWireKeepsTheEndOfInitialEvents(t *testing.T) {
	bookmark := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "99",
		Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true", "other": "x"}}}
	want := map[string]string{metav1.InitialEventsAnnotationKey: "true"}
	got := wireDecode(t, marshal(t, bookmark))
	if !reflect.DeepEqual(got.Annotations, want) || got.ResourceVersion != "99" {
		t.Errorf("bookmark read as %+v, want annotations %v and resourceVersion 99", got.ObjectMeta, want)
	}
	// And from a server that answers in JSON.
	data, err := json.Marshal(bookmark)
	if err != nil {
		t.Fatal(err)
	}
	base := scheme.Codecs.WithoutConversion()
	dec, err := runtime.NewClientNegotiator(newWireCodecs(base, nil, nil), corev1.SchemeGroupVersion).Decoder(runtime.ContentTypeJSON, nil)
	if err != nil {
		t.Fatal(err)
	}
	fromJSON := &corev1.Pod{}
	if _, _, err := dec.Decode(data, &podKind, fromJSON); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromJSON.Annotations, want) || fromJSON.ResourceVersion != "99" {
		t.Errorf("JSON bookmark read as %+v, want annotations %v and resourceVersion 99", fromJSON.ObjectMeta, want)
	}
}

// TestWireRefusesTruncatedPods: a pod cut anywhere is refused exactly when
// client-go refuses it, and read the same when both accept the cut.
func TestWireRefusesTruncatedPods(t *testing.T) {
	real := &corev1.Pod{}
	if err := json.Unmarshal([]byte(realPod), real); err != nil {
		t.Fatal(err)
	}
	b := marshal(t, real)
	refused := 0
	for n := range len(b) {
		cut := b[:n]
		full := &corev1.Pod{}
		fullErr := full.Unmarshal(cut)
		got := &corev1.Pod{}
		err := decodePod(cut, got)
		if (err != nil) != (fullErr != nil) {
			t.Fatalf("cut at %d of %d: podwire says %v, client-go says %v", n, len(b), err, fullErr)
		}
		if err != nil {
			refused++
			continue
		}
		if want := slimPod(full); !reflect.DeepEqual(want, got) {
			t.Fatalf("cut at %d: podwire reads another pod than the transform keeps", n)
		}
	}
	if refused < len(b)/2 {
		t.Errorf("only %d of %d cuts refused", refused, len(b))
	}
}

// TestWireReadsMutatedPodsAsClientGo flips bytes of a real pod and cuts it
// short: podwire never panics, and where it and client-go both accept the
// bytes they read the same pod. FuzzDecodePod searches further.
func TestWireReadsMutatedPodsAsClientGo(t *testing.T) {
	real := &corev1.Pod{}
	if err := json.Unmarshal([]byte(realPod), real); err != nil {
		t.Fatal(err)
	}
	b := marshal(t, real)
	r := rand.New(rand.NewSource(5))
	both := 0
	for i := range 20000 {
		c := append([]byte(nil), b...)
		for range 1 + r.Intn(4) {
			c[r.Intn(len(c))] = byte(r.Intn(256))
		}
		if i%2 == 0 {
			c = c[:r.Intn(len(c))]
		}
		got := &corev1.Pod{}
		err := decodePod(c, got)
		full := &corev1.Pod{}
		if fullErr := full.Unmarshal(c); err == nil && fullErr == nil {
			both++
			if want := slimPod(full); !reflect.DeepEqual(want, got) {
				t.Fatalf("mutation %d: podwire reads another pod than the transform keeps", i)
			}
		}
		_ = decodePodList(c, &corev1.PodList{})
	}
	if both == 0 {
		t.Error("no mutated pod was accepted by both decoders")
	}
}

// FuzzDecodePod: arbitrary bytes never panic the decoder, and whatever both
// it and client-go accept, they read alike. (podwire steps over fields it
// does not keep without checking their wire types, so it accepts some bytes
// client-go refuses.)
//
//	go test ./kube/watch -run '^$' -fuzz FuzzDecodePod -fuzztime 60s
func FuzzDecodePod(f *testing.F) {
	real := &corev1.Pod{}
	if err := json.Unmarshal([]byte(realPod), real); err != nil {
		f.Fatal(err)
	}
	b, _ := real.Marshal()
	f.Add(b)
	f.Add(appendUnknown(b))
	f.Add([]byte{})
	f.Add([]byte{0x0a, 0x80})
	f.Fuzz(func(t *testing.T, b []byte) {
		got := &corev1.Pod{}
		err := decodePod(b, got)
		full := &corev1.Pod{}
		if fullErr := full.Unmarshal(b); err == nil && fullErr == nil {
			if want := slimPod(full); !reflect.DeepEqual(want, got) {
				t.Fatalf("podwire reads another pod than the transform keeps")
			}
		}
		list := &corev1.PodList{}
		_ = decodePodList(b, list)
		_, _, _ = envelope(b)
	})
}

// TestSlimPodCodecs decodes what an API server sends through the pods
// client's codecs: protobuf pods and lists slim, JSON pods slimmed after
// decoding, errors (a Status) as client-go decodes them.
func TestSlimPodCodecs(t *testing.T) {
	real := &corev1.Pod{}
	if err := json.Unmarshal([]byte(realPod), real); err != nil {
		t.Fatal(err)
	}
	base := scheme.Codecs.WithoutConversion()
	codecs := newWireCodecs(base, nil, nil)
	want := slimPod(real.DeepCopy())
	want.TypeMeta = metav1.TypeMeta{}
	for _, mediaType := range []string{protobufMediaType, runtime.ContentTypeJSON} {
		info, ok := runtime.SerializerInfoForMediaType(base.SupportedMediaTypes(), mediaType)
		if !ok {
			t.Fatalf("no %s serializer", mediaType)
		}
		enc := base.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion)
		dec, err := runtime.NewClientNegotiator(codecs, corev1.SchemeGroupVersion).Decoder(mediaType, nil)
		if err != nil {
			t.Fatal(err)
		}

		data, err := runtime.Encode(enc, real)
		if err != nil {
			t.Fatal(err)
		}
		obj, err := runtime.Decode(dec, data)
		if err != nil {
			t.Fatalf("%s pod: %v", mediaType, err)
		}
		if !reflect.DeepEqual(obj, want) {
			t.Errorf("%s pod decoded as %+v, want %+v", mediaType, obj, want)
		}
		into := &corev1.Pod{Spec: corev1.PodSpec{NodeName: "stale"}}
		if _, _, err := dec.Decode(data, nil, into); err != nil || !reflect.DeepEqual(into, want) {
			t.Errorf("%s pod decoded into a used pod as %+v (%v), want %+v", mediaType, into, err, want)
		}

		// An API server's list items carry no kind.
		item := real.DeepCopy()
		item.TypeMeta = metav1.TypeMeta{}
		list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "7"}, Items: []corev1.Pod{*item, *item}}
		data, err = runtime.Encode(enc, list)
		if err != nil {
			t.Fatal(err)
		}
		gotList := &corev1.PodList{}
		if _, _, err := dec.Decode(data, nil, gotList); err != nil {
			t.Fatalf("%s list: %v", mediaType, err)
		}
		if len(gotList.Items) != 2 || gotList.ResourceVersion != "7" || !reflect.DeepEqual(&gotList.Items[1], want) {
			t.Errorf("%s list decoded as %+v", mediaType, gotList)
		}

		status := &metav1.Status{Status: metav1.StatusFailure, Reason: metav1.StatusReasonExpired, Code: 410, Message: "too old resource version"}
		data, err = runtime.Encode(enc, status)
		if err != nil {
			t.Fatal(err)
		}
		obj, err = runtime.Decode(dec, data)
		if got, ok := obj.(*metav1.Status); err != nil || !ok || got.Reason != metav1.StatusReasonExpired || got.Code != 410 {
			t.Errorf("%s status decoded as %#v (%v)", mediaType, obj, err)
		}
	}
}
