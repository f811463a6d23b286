package watch

import (
	"encoding/json"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
)

// BenchmarkDecodePod decodes one typical pod (realPod: a Deployment's running
// pod as a 1.36 API server sends it, managed fields and all) as a watch event
// carries it, in protobuf: before, client-go's codec decodes it whole and
// the informer's transform slims it; after, the pods client's codec reads
// only what the console keeps.
//
//	go test ./kube/watch -run '^$' -bench DecodePod -benchmem
func BenchmarkDecodePod(b *testing.B) {
	real := &corev1.Pod{}
	if err := json.Unmarshal([]byte(realPod), real); err != nil {
		b.Fatal(err)
	}
	base := scheme.Codecs.WithoutConversion()
	info, _ := runtime.SerializerInfoForMediaType(base.SupportedMediaTypes(), protobufMediaType)
	data, err := runtime.Encode(base.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion), real)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkDecoders(b, corev1.SchemeGroupVersion, data, []decoderCase{
		{"client-go+transform", base, trim},
		{"podwire", newWireCodecs(base, nil, nil), func(o any) (any, error) { return o, nil }},
	})
}

// decoderCase is a way to decode: codecs, then the transform.
type decoderCase struct {
	name      string
	codecs    runtime.NegotiatedSerializer
	transform func(any) (any, error)
}

// benchmarkDecoders decodes data (gv's protobuf) each way in turn.
func benchmarkDecoders(b *testing.B, gv schema.GroupVersion, data []byte, cases []decoderCase) {
	for _, c := range cases {
		dec, err := runtime.NewClientNegotiator(c.codecs, gv).Decoder(protobufMediaType, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				obj, err := runtime.Decode(dec, data)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.transform(obj); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHeapPerWirePod is BenchmarkHeapPerCachedPod from protobuf: the
// heap each cached pod costs when client-go decodes it and the transform
// slims it, and when podwire reads it (B/pod, after a collection).
//
//	go test ./kube/watch -run '^$' -bench HeapPerWirePod -benchtime 1x
func BenchmarkHeapPerWirePod(b *testing.B) {
	const pods = 5000
	wires := make([][]byte, pods)
	for i := range pods {
		p := &corev1.Pod{}
		if err := json.Unmarshal([]byte(strings.Replace(realPod, "NAME", strconv.Itoa(i), 1)), p); err != nil {
			b.Fatal(err)
		}
		data, err := p.Marshal()
		if err != nil {
			b.Fatal(err)
		}
		wires[i] = data
	}
	for _, c := range []struct {
		name   string
		decode func([]byte) (any, error)
	}{
		{"client-go+transform", func(data []byte) (any, error) {
			p := &corev1.Pod{}
			if err := p.Unmarshal(data); err != nil {
				return nil, err
			}
			return trim(p)
		}},
		{"podwire", func(data []byte) (any, error) {
			p := &corev1.Pod{}
			return p, decodePod(data, p)
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				kept := make([]any, 0, pods)
				var before, after goruntime.MemStats
				goruntime.GC()
				goruntime.ReadMemStats(&before)
				for _, data := range wires {
					out, err := c.decode(data)
					if err != nil {
						b.Fatal(err)
					}
					kept = append(kept, out)
				}
				goruntime.GC()
				goruntime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/pods, "B/pod")
				goruntime.KeepAlive(kept)
			}
		})
	}
}
