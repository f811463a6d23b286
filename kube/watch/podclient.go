package watch

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

// The pods of a live cluster are listed and watched through their own REST
// client, whose decoder reads pods straight into their slim form
// (podwire.go). Everything else stays client-go's: the requests, the watch
// stream's framing, bookmarks, errors and resourceVersions, and the reflector.

// protobufMediaType is the API server's binary encoding.
const protobufMediaType = runtime.ContentTypeProtobuf

// protobufPrefix starts every protobuf body: "k8s" and a zero byte, then a
// runtime.Unknown whose raw bytes are the object.
var protobufPrefix = []byte("k8s\x00")

// slimPods lists and watches pods as client.CoreV1().Pods(ns) would, decoding
// each into its slim form.
type slimPods struct {
	rc *rest.RESTClient
	ns string
}

// Each pod decoded from a watch adds one to seen, which counts the pods a
// streaming first list has brought so far.
func newSlimPods(cfg *rest.Config, client kubernetes.Interface, ns string, seen *atomic.Int64) (*slimPods, error) {
	c := wireConfig(cfg, corev1.SchemeGroupVersion, newWireCodecs(generatedCodecs(), seen, nil))
	if c.ContentType == "" {
		c.ContentType = protobufMediaType
		c.AcceptContentTypes = protobufMediaType + ",application/json"
	}
	// HTTP/1.1 for the pods, whose watch carries most of the console's
	// events: its body is then read straight from the connection by the
	// goroutine that decodes it. Over HTTP/2 a connection goroutine reads
	// every frame first and hands it over through a buffer, writing flow
	// control back — one more goroutine woken, and more system calls, for
	// each event. The pods have a connection of their own; a frozen API
	// server, which HTTP/2's pings would have noticed on it, is noticed by
	// the bridge's /readyz probe.
	if len(c.TLSClientConfig.NextProtos) == 0 {
		c.TLSClientConfig.NextProtos = []string{"http/1.1"}
	}
	// One rate limit for the console's requests, pods included.
	shareRateLimit(c, client)
	// Watches stay open; each page of a list is bounded by the request
	// timeout instead (firstlist.go).
	c.Timeout = 0
	rc, err := rest.RESTClientFor(c)
	if err != nil {
		return nil, fmt.Errorf("cannot make a client to watch pods on %s: %w", cfg.Host, err)
	}
	return &slimPods{rc: rc, ns: ns}, nil
}

// in is the same client's pods of another namespace ("": all).
func (p *slimPods) in(ns string) *slimPods { return &slimPods{rc: p.rc, ns: ns} }

func (p *slimPods) List(ctx context.Context, opts metav1.ListOptions) (*corev1.PodList, error) {
	list := &corev1.PodList{}
	err := p.request(opts).Do(ctx).Into(list)
	return list, err
}

func (p *slimPods) Watch(ctx context.Context, opts metav1.ListOptions) (apiwatch.Interface, error) {
	opts.Watch = true
	return p.request(opts).Watch(ctx)
}

func (p *slimPods) request(opts metav1.ListOptions) *rest.Request {
	var timeout time.Duration
	if opts.TimeoutSeconds != nil {
		timeout = time.Duration(*opts.TimeoutSeconds) * time.Second
	}
	return p.rc.Get().NamespaceIfScoped(p.ns, p.ns != "").Resource("pods").
		VersionedParams(&opts, scheme.ParameterCodec).Timeout(timeout)
}

// wireConfig is cfg for a REST client of gv (a group of /apis, or the core
// group of /api) decoding through codecs, as client-go makes its own.
func wireConfig(cfg *rest.Config, gv schema.GroupVersion, codecs wireCodecs) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.GroupVersion, c.APIPath = &gv, "/apis"
	if gv.Group == "" {
		c.APIPath = "/api"
	}
	c.NegotiatedSerializer = codecs
	if c.UserAgent == "" {
		c.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	return c
}

// generatedCodecs are the codecs client-go's generated clients decode with.
func generatedCodecs() runtime.NegotiatedSerializer {
	return rest.CodecFactoryForGeneratedClient(scheme.Scheme, scheme.Codecs).WithoutConversion()
}

// wireCodecs is client-go's codecs with every media type's decoder wrapped
// by wireDecoder, and protobuf watch events' frames read by
// watchEventFrames.
type wireCodecs struct {
	runtime.NegotiatedSerializer
	infos []runtime.SerializerInfo
}

// newWireCodecs reads pods slim, counting them in seen (nil: not counted),
// and Deployments and ReplicaSets with their templates from tmpl (nil: as
// client-go does; appswire.go).
func newWireCodecs(base runtime.NegotiatedSerializer, seen *atomic.Int64, tmpl *templates) wireCodecs {
	infos := append([]runtime.SerializerInfo(nil), base.SupportedMediaTypes()...)
	for i := range infos {
		// The stream serializer only reads a watch event's frame; the
		// object inside is decoded by Serializer.
		infos[i].Serializer = wireDecoder{Serializer: infos[i].Serializer, protobuf: infos[i].MediaType == protobufMediaType, seen: seen, templates: tmpl}
		if ss := infos[i].StreamSerializer; ss != nil && infos[i].MediaType == protobufMediaType {
			frames := *ss
			frames.Serializer = watchEventFrames{Serializer: ss.Serializer}
			infos[i].StreamSerializer = &frames
		}
	}
	return wireCodecs{NegotiatedSerializer: base, infos: infos}
}

func (c wireCodecs) SupportedMediaTypes() []runtime.SerializerInfo { return c.infos }

// wireDecoder decodes Pods and PodLists into slim pods: from protobuf by
// reading only the fields kept, from any other encoding by decoding fully and
// slimming; and, given templates, Deployments and ReplicaSets from protobuf
// without decoding a template twice. Everything else (a Status carrying an
// error) is the wrapped serializer's.
type wireDecoder struct {
	runtime.Serializer
	protobuf  bool
	seen      *atomic.Int64 // nil counts nothing
	templates *templates
}

var (
	podKind     = corev1.SchemeGroupVersion.WithKind("Pod")
	podListKind = corev1.SchemeGroupVersion.WithKind("PodList")
)

func (d wireDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	if d.protobuf {
		if obj, gvk, ok, err := decodeWireProtobuf(data, into, d.templates); ok {
			d.count(obj, err)
			return obj, gvk, err
		}
	}
	obj, gvk, err := d.Serializer.Decode(data, defaults, into)
	defer d.count(obj, err)
	if err != nil {
		return obj, gvk, err
	}
	switch o := obj.(type) {
	case *corev1.Pod:
		*o = *slimPodKeepingBookmark(o)
	case *corev1.PodList:
		for i := range o.Items {
			o.Items[i] = *slimPod(&o.Items[i])
		}
	}
	return obj, gvk, nil
}

// count adds a pod decoded from a watch to seen; a bookmark, which has no
// name, is no pod, and a list's pages are counted whole by the bridge.
func (d wireDecoder) count(obj runtime.Object, err error) {
	if p, ok := obj.(*corev1.Pod); ok && err == nil && d.seen != nil && p.Name != "" {
		d.seen.Add(1)
	}
}

// slimPodKeepingBookmark is slimPod but for the annotation that ends a
// streaming list's initial events, which client-go's reflector waits for
// (podwire keeps it too).
func slimPodKeepingBookmark(p *corev1.Pod) *corev1.Pod {
	s := slimPod(p)
	if v, ok := p.Annotations[metav1.InitialEventsAnnotationKey]; ok {
		s.Annotations = map[string]string{metav1.InitialEventsAnnotationKey: v}
	}
	return s
}

// decodeWireProtobuf decodes a protobuf Pod or PodList, and with tmpl a
// Deployment, ReplicaSet or list of either; ok is false for any other
// object, and for an envelope it does not read (an encoded or nested content
// type), which the protobuf serializer then decodes as before.
func decodeWireProtobuf(data []byte, into runtime.Object, tmpl *templates) (obj runtime.Object, gvk *schema.GroupVersionKind, ok bool, err error) {
	if !bytes.HasPrefix(data, protobufPrefix) {
		return nil, nil, false, nil
	}
	kind, raw, plain := envelope(data[len(protobufPrefix):])
	if !plain {
		return nil, nil, false, nil
	}
	switch kind {
	case podKind:
		p, fits := into.(*corev1.Pod)
		if into != nil && !fits {
			return nil, nil, false, nil
		}
		if p == nil {
			p = &corev1.Pod{}
		} else {
			*p = corev1.Pod{}
		}
		if err := decodePod(raw, p); err != nil {
			return nil, nil, true, err
		}
		gvk := podKind
		return p, &gvk, true, nil
	case podListKind:
		l, fits := into.(*corev1.PodList)
		if into != nil && !fits {
			return nil, nil, false, nil
		}
		if l == nil {
			l = &corev1.PodList{}
		} else {
			*l = corev1.PodList{}
		}
		if err := decodePodList(raw, l); err != nil {
			return nil, nil, true, err
		}
		gvk := podListKind
		return l, &gvk, true, nil
	}
	if tmpl != nil {
		if obj, ok := tmpl.decodeProtobuf(kind, raw, into); ok {
			return obj, &kind, true, nil
		}
	}
	return nil, nil, false, nil
}

// envelope reads a runtime.Unknown without copying its raw bytes, as
// runtime.Unknown.Unmarshal would: typeMeta is field 1 (apiVersion 1, kind
// 2), raw 2, contentEncoding 3, contentType 4. plain is false when the
// envelope is malformed or its raw bytes are not a bare protobuf message.
func envelope(b []byte) (gvk schema.GroupVersionKind, raw []byte, plain bool) {
	w := wire{b: b}
	var apiVersion, kind []byte
	plain = true
	w.each(func(num int32, typ int) {
		switch num {
		case 1:
			tm := w.bytes(typ, num)
			t := wire{b: tm}
			for {
				n, ty, ok := t.next()
				if !ok {
					break
				}
				switch n {
				case 1:
					apiVersion = t.bytes(ty, n)
				case 2:
					kind = t.bytes(ty, n)
				default:
					t.skip(ty)
				}
			}
			w.fail(t.err)
		case 2:
			raw = w.bytes(typ, num)
		case 3, 4:
			if len(w.bytes(typ, num)) > 0 {
				plain = false
			}
		default:
			w.skip(typ)
		}
	})
	if w.err != nil {
		return gvk, nil, false
	}
	// Comparing bytes makes no strings: only the kinds read here are ours.
	switch string(apiVersion) {
	case "v1":
		switch string(kind) {
		case "Pod":
			gvk = podKind
		case "PodList":
			gvk = podListKind
		}
	case "apps/v1":
		switch string(kind) {
		case "Deployment":
			gvk = deploymentKind
		case "DeploymentList":
			gvk = deploymentListKind
		case "ReplicaSet":
			gvk = replicaSetKind
		case "ReplicaSetList":
			gvk = replicaSetListKind
		}
	}
	return gvk, raw, plain
}
