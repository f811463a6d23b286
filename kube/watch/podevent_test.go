package watch

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	restwatch "k8s.io/client-go/rest/watch"
)

// protobufStream is client-go's protobuf stream serializer: what reads a
// watch event's frame before watchEventFrames.
func protobufStream(t testing.TB) *runtime.StreamSerializerInfo {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.WithoutConversion().SupportedMediaTypes(), protobufMediaType)
	if !ok || info.StreamSerializer == nil {
		t.Fatal("no protobuf stream serializer")
	}
	return info.StreamSerializer
}

// watchFrames encodes events as an API server writes them on a protobuf
// watch: each object in its envelope, inside a WatchEvent.
func watchFrames(t testing.TB, events ...apiwatch.Event) [][]byte {
	t.Helper()
	base := scheme.Codecs.WithoutConversion()
	info, _ := runtime.SerializerInfoForMediaType(base.SupportedMediaTypes(), protobufMediaType)
	enc := base.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion)
	var frames [][]byte
	for _, e := range events {
		raw, err := runtime.Encode(enc, e.Object)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := protobufStream(t).Serializer.Encode(&metav1.WatchEvent{Type: string(e.Type), Object: runtime.RawExtension{Raw: raw}}, &buf); err != nil {
			t.Fatal(err)
		}
		frames = append(frames, buf.Bytes())
	}
	return frames
}

// sameFrameDecoding fails unless watchEventFrames reads frame as client-go's
// serializer does: the same type and object bytes, or an error for both.
func sameFrameDecoding(t *testing.T, what string, frame []byte) {
	t.Helper()
	want, got := &metav1.WatchEvent{}, &metav1.WatchEvent{}
	_, _, wantErr := protobufStream(t).Serializer.Decode(bytes.Clone(frame), nil, want)
	_, _, gotErr := watchEventFrames{Serializer: protobufStream(t).Serializer}.Decode(bytes.Clone(frame), nil, got)
	if (wantErr != nil) != (gotErr != nil) {
		t.Fatalf("%s: client-go says %v, watchEventFrames says %v", what, wantErr, gotErr)
	}
	if wantErr != nil {
		return
	}
	if want.Type != got.Type || !bytes.Equal(want.Object.Raw, got.Object.Raw) || got.Object.Object != nil {
		t.Fatalf("%s: client-go reads %q with %d bytes, watchEventFrames %q with %d bytes", what, want.Type, len(want.Object.Raw), got.Type, len(got.Object.Raw))
	}
}

func TestWatchEventFramesReadAsClientGo(t *testing.T) {
	real := &corev1.Pod{}
	if err := json.Unmarshal([]byte(realPod), real); err != nil {
		t.Fatal(err)
	}
	events := []apiwatch.Event{
		{Type: apiwatch.Added, Object: real},
		{Type: apiwatch.Modified, Object: real},
		{Type: apiwatch.Deleted, Object: real},
		{Type: apiwatch.Bookmark, Object: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "12",
			Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}}},
		{Type: apiwatch.Error, Object: &metav1.Status{Status: metav1.StatusFailure, Reason: metav1.StatusReasonExpired, Code: 410}},
		{Type: "SOMETHING-NEW", Object: real},
	}
	frames := watchFrames(t, events...)
	for i, f := range frames {
		sameFrameDecoding(t, string(events[i].Type), f)
	}

	// Frames no API server writes today: client-go's decoding stays the
	// judge (watchEventFrames hands them to it).
	objectOf := func(f []byte) []byte {
		ev := &metav1.WatchEvent{}
		if err := ev.Unmarshal(f); err != nil {
			t.Fatal(err)
		}
		return ev.Object.Raw
	}
	raw := objectOf(frames[1])
	field := func(num byte, v []byte) []byte { return appendMessage(nil, num, v) }
	for what, f := range map[string][]byte{
		"empty":                  {},
		"type only":              field(1, []byte("ADDED")),
		"object only":            field(2, field(1, raw)),
		"type twice":             append(append(field(1, []byte("ADDED")), field(1, []byte("MODIFIED"))...), field(2, field(1, raw))...),
		"object twice":           append(append(field(1, []byte("ADDED")), field(2, field(1, []byte("x")))...), field(2, field(1, raw))...),
		"object first":           append(field(2, field(1, raw)), field(1, []byte("ADDED"))...),
		"unknown field":          appendUnknown(append(field(1, []byte("ADDED")), field(2, field(1, raw))...)),
		"empty object":           append(field(1, []byte("ADDED")), field(2, nil)...),
		"object with extra":      append(field(1, []byte("ADDED")), field(2, appendUnknown(field(1, raw)))...),
		"type as a varint":       append([]byte{0x08, 0x01}, field(2, field(1, raw))...),
		"truncated":              frames[1][:len(frames[1])/2],
		"object length too long": append(field(1, []byte("ADDED")), 0x12, 0xff, 0x7f),
	} {
		sameFrameDecoding(t, what, f)
	}

	// And every frame with a byte changed.
	rng := rand.New(rand.NewSource(17))
	for range 20000 {
		f := bytes.Clone(frames[rng.Intn(len(frames))])
		f[rng.Intn(len(f))] ^= byte(1 + rng.Intn(255))
		sameFrameDecoding(t, "a frame with a flipped byte", f)
	}
}

// TestSlimPodWatchStream reads a protobuf watch stream as the pods client's
// watch does — frames, events, slim pods — and gets what client-go's own
// codecs and the transform give, event by event, with the stream's buffer
// reused between events.
func TestSlimPodWatchStream(t *testing.T) {
	real := &corev1.Pod{}
	if err := json.Unmarshal([]byte(realPod), real); err != nil {
		t.Fatal(err)
	}
	var events []apiwatch.Event
	for i := range 50 {
		p := real.DeepCopy()
		p.Name = p.Name + string(rune('a'+i%26))
		p.ResourceVersion = string(rune('0' + i%10))
		p.Labels = map[string]string{"round": p.ResourceVersion}
		events = append(events, apiwatch.Event{Type: apiwatch.Modified, Object: p})
	}
	events = append(events, apiwatch.Event{Type: apiwatch.Error, Object: &metav1.Status{Status: metav1.StatusFailure, Code: 410, Message: "too old"}})
	var stream bytes.Buffer
	for _, f := range watchFrames(t, events...) {
		var framed bytes.Buffer
		w := protobufStream(t).Framer.NewFrameWriter(&framed)
		if _, err := w.Write(f); err != nil {
			t.Fatal(err)
		}
		stream.Write(framed.Bytes())
	}

	read := func(codecs runtime.NegotiatedSerializer) []apiwatch.Event {
		objects, frames, framer, err := runtime.NewClientNegotiator(codecs, corev1.SchemeGroupVersion).StreamDecoder(protobufMediaType, nil)
		if err != nil {
			t.Fatal(err)
		}
		d := restwatch.NewDecoder(streaming.NewDecoder(framer.NewFrameReader(io.NopCloser(bytes.NewReader(stream.Bytes()))), frames), objects)
		var got []apiwatch.Event
		for {
			typ, obj, err := d.Decode()
			if err == io.EOF {
				return got
			}
			if err != nil {
				t.Fatal(err)
			}
			if p, ok := obj.(*corev1.Pod); ok {
				p.TypeMeta = metav1.TypeMeta{} // the scheme's, not the wire's
			}
			got = append(got, apiwatch.Event{Type: typ, Object: obj})
		}
	}
	base := scheme.Codecs.WithoutConversion()
	want := read(base)
	for i := range want {
		if p, ok := want[i].Object.(*corev1.Pod); ok {
			want[i].Object = slimPodKeepingBookmark(p)
		}
	}
	got := read(newWireCodecs(base, nil, nil))
	if len(got) != len(want) {
		t.Fatalf("read %d events, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Type != want[i].Type || !reflect.DeepEqual(got[i].Object, want[i].Object) {
			t.Fatalf("event %d: got %s %+v, want %s %+v", i, got[i].Type, got[i].Object, want[i].Type, want[i].Object)
		}
	}
}

// BenchmarkDecodePodWatchEvent reads one pod's watch event as the pods
// client's watch does — the frame into a WatchEvent, then its object into a
// slim pod — with client-go's protobuf stream serializer reading the frame
// (before) and with watchEventFrames (after).
//
//	go test ./kube/watch -run '^$' -bench DecodePodWatchEvent -benchmem
func BenchmarkDecodePodWatchEvent(b *testing.B) {
	real := &corev1.Pod{}
	if err := json.Unmarshal([]byte(realPod), real); err != nil {
		b.Fatal(err)
	}
	frame := watchFrames(b, apiwatch.Event{Type: apiwatch.Modified, Object: real})[0]
	objects, err := runtime.NewClientNegotiator(newWireCodecs(scheme.Codecs.WithoutConversion(), nil, nil), corev1.SchemeGroupVersion).Decoder(protobufMediaType, nil)
	if err != nil {
		b.Fatal(err)
	}
	stream := protobufStream(b).Serializer
	for _, c := range []struct {
		name   string
		frames runtime.Decoder
	}{
		{"client-go-frames", stream},
		{"watchEventFrames", watchEventFrames{Serializer: stream}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				// client-go's watch decoder takes a new event each time.
				got := &metav1.WatchEvent{}
				if _, _, err := c.frames.Decode(frame, nil, got); err != nil {
					b.Fatal(err)
				}
				if _, err := runtime.Decode(objects, got.Object.Raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
