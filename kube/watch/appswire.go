package watch

import (
	"errors"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	appsclient "k8s.io/client-go/kubernetes/typed/apps/v1"
	"k8s.io/client-go/rest"

	"rollscope/kube/objects"
)

// This file decodes Deployments and ReplicaSets from the API server's
// protobuf without decoding their pod template again when it has not
// changed. While a rollout runs, the controllers write their status many
// times a second, and each write comes to the console whole: the template,
// its containers, resources and probes, and the managed fields — most of
// the object — decoded anew every time, only to equal what the cache
// already held; and the console's controllers watch the same objects. The template is kept whole (trim.go: the console diffs
// revisions), so it is decoded once for each distinct template's bytes and
// shared by the versions that carry the same bytes; the managed fields,
// which trim drops, are stepped over.
//
// Everything else is decoded by the types' own generated Unmarshal methods,
// field by field as the whole object's would, so the result is the object
// client-go decodes, trimmed (TestWireAppsAreClientGos). Anything
// this does not expect — a field repeated that the API server writes once,
// a malformed message — is left to the protobuf serializer, errors
// included.

// wireApps is a client whose apps/v1 group is read through newWireCodecs
// with templates.
type wireApps struct {
	kubernetes.Interface
	apps appsclient.AppsV1Interface
}

func (c wireApps) AppsV1() appsclient.AppsV1Interface { return c.apps }

// decoded are the templates every apps client of the process shares.
var decoded = newTemplates()

// AppsFromWire is client (made from cfg) with its apps/v1 group decoding
// Deployments and ReplicaSets through newWireCodecs: the bridge's watch
// client, and the console's controllers', whose informers watch the same
// objects. The templates decoded are the process's, so the second watch of
// an object finds its template decoded by the first.
func AppsFromWire(client kubernetes.Interface, cfg *rest.Config) (kubernetes.Interface, error) {
	rc, err := rest.RESTClientFor(wireConfig(cfg, appsv1.SchemeGroupVersion, newWireCodecs(generatedCodecs(), nil, decoded)))
	if err != nil {
		return nil, err
	}
	wired := wireApps{Interface: client, apps: appsclient.New(rc)}
	if dyn, err := objects.DynamicOf(client); err == nil {
		return objects.WithDynamic(wired, dyn), nil // Argo's Rollouts still reached
	}
	return wired, nil
}

var (
	deploymentKind     = appsv1.SchemeGroupVersion.WithKind("Deployment")
	deploymentListKind = appsv1.SchemeGroupVersion.WithKind("DeploymentList")
	replicaSetKind     = appsv1.SchemeGroupVersion.WithKind("ReplicaSet")
	replicaSetListKind = appsv1.SchemeGroupVersion.WithKind("ReplicaSetList")
)

// Field numbers of k8s.io/api/apps/v1/generated.proto and
// k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto: a Deployment and a
// ReplicaSet are metadata 1, spec 2, status 3, and the template is field 3
// of both specs; a list is its metadata 1 and items 2.
const (
	fieldMeta          = 1
	fieldSpec          = 2
	fieldStatus        = 3
	fieldTemplate      = 3
	fieldItems         = 2
	fieldManagedFields = 17
)

// errWireMalformed stops a read that the protobuf serializer should do.
var errWireMalformed = errors.New("protobuf: not as the API server writes it")

// templates are the pod templates decoded so far, by their bytes. The
// newest are kept in now; when now is full it becomes old, and a template
// found in old moves back to now: a template in use stays, one no version
// carries any more is forgotten after two turns.
type templates struct {
	mu       sync.Mutex
	now, old map[string]corev1.PodTemplateSpec
}

// templatesKept is how many templates now holds before it turns: more
// than the Deployments and ReplicaSets of all but the largest clusters.
const templatesKept = 8192

func newTemplates() *templates {
	return &templates{now: map[string]corev1.PodTemplateSpec{}}
}

// template is the template b encodes, decoded once for each distinct b.
// The template returned is shared: its maps and slices are those of every
// object decoded from the same bytes, which nothing may modify (as nothing
// may modify what a client-go cache holds).
func (t *templates) template(b []byte) (corev1.PodTemplateSpec, error) {
	t.mu.Lock()
	if tmpl, ok := t.now[string(b)]; ok {
		t.mu.Unlock()
		return tmpl, nil
	}
	tmpl, ok := t.old[string(b)]
	if ok {
		t.keep(string(b), tmpl)
	}
	t.mu.Unlock()
	if ok {
		return tmpl, nil
	}
	if err := tmpl.Unmarshal(b); err != nil {
		return corev1.PodTemplateSpec{}, err
	}
	t.mu.Lock()
	t.keep(string(b), tmpl)
	t.mu.Unlock()
	return tmpl, nil
}

func (t *templates) keep(key string, tmpl corev1.PodTemplateSpec) {
	if len(t.now) >= templatesKept {
		t.old, t.now = t.now, make(map[string]corev1.PodTemplateSpec, templatesKept)
	}
	t.now[key] = tmpl
}

// decodeProtobuf decodes a Deployment, a ReplicaSet or a list of either
// from raw (an envelope's bytes) into into (nil: a new object); ok is false
// for any other kind, for an into of another type, and for what the
// protobuf serializer should decode instead.
func (t *templates) decodeProtobuf(kind schema.GroupVersionKind, raw []byte, into runtime.Object) (runtime.Object, bool) {
	switch kind {
	case deploymentKind:
		d, ok := fresh[appsv1.Deployment](into)
		return d, ok && t.object(raw, &d.ObjectMeta, &d.Spec, &d.Status, &d.Spec.Template)
	case replicaSetKind:
		rs, ok := fresh[appsv1.ReplicaSet](into)
		return rs, ok && t.object(raw, &rs.ObjectMeta, &rs.Spec, &rs.Status, &rs.Spec.Template)
	case deploymentListKind:
		l, ok := fresh[appsv1.DeploymentList](into)
		return l, ok && t.list(raw, &l.ListMeta, func(n int) { l.Items = make([]appsv1.Deployment, n) }, func(i int, b []byte) bool {
			d := &l.Items[i]
			return t.object(b, &d.ObjectMeta, &d.Spec, &d.Status, &d.Spec.Template)
		})
	case replicaSetListKind:
		l, ok := fresh[appsv1.ReplicaSetList](into)
		return l, ok && t.list(raw, &l.ListMeta, func(n int) { l.Items = make([]appsv1.ReplicaSet, n) }, func(i int, b []byte) bool {
			rs := &l.Items[i]
			return t.object(b, &rs.ObjectMeta, &rs.Spec, &rs.Status, &rs.Spec.Template)
		})
	}
	return nil, false
}

// fresh is into as a zero *T, or a new one when into is nil; false when
// into is another type.
func fresh[T any, P interface {
	*T
	runtime.Object
}](into runtime.Object) (P, bool) {
	if into == nil {
		return P(new(T)), true
	}
	p, ok := into.(P)
	if ok {
		*p = *new(T)
	}
	return p, ok
}

// unmarshaler is a generated protobuf message.
type unmarshaler interface{ Unmarshal([]byte) error }

// object decodes a Deployment's or ReplicaSet's message b into its parts,
// the template from t; false when b is not as the API server writes it.
func (t *templates) object(b []byte, meta *metav1.ObjectMeta, spec, status unmarshaler, template *corev1.PodTemplateSpec) bool {
	fields, ok := once(b, fieldMeta, fieldSpec, fieldStatus)
	if !ok {
		return false
	}
	m, s, st := fields[0], fields[1], fields[2]
	if m != nil && !unmarshalWithout(m, fieldManagedFields, meta) {
		return false
	}
	var tmpl []byte
	if s != nil {
		kept, ok := once(s, fieldTemplate)
		if !ok || !unmarshalWithout(s, fieldTemplate, spec) {
			return false
		}
		tmpl = kept[0]
	}
	if st != nil && status.Unmarshal(st) != nil {
		return false
	}
	if tmpl == nil {
		return true // no template: the zero one, as the whole decode leaves it
	}
	decoded, err := t.template(tmpl)
	if err != nil {
		return false
	}
	*template = decoded
	return true
}

// list decodes a list's message: its metadata, then each item through item
// after size has sized the items.
func (t *templates) list(b []byte, meta *metav1.ListMeta, size func(int), item func(int, []byte) bool) bool {
	fields, ok := once(b, fieldMeta)
	if !ok || fields[0] != nil && meta.Unmarshal(fields[0]) != nil {
		return false
	}
	n := 0
	count := wire{b: b}
	count.each(func(num int32, typ int) {
		if num == fieldItems && typ == 2 {
			n++
		}
		count.skip(typ)
	})
	if count.err != nil {
		return false
	}
	if n == 0 {
		return true
	}
	size(n)
	w, i := wire{b: b}, 0
	w.each(func(num int32, typ int) {
		if num != fieldItems || typ != 2 {
			w.skip(typ)
			return
		}
		if v := w.raw(); w.err == nil && !item(i, v) {
			w.fail(errWireMalformed)
		}
		i++
	})
	return w.err == nil
}

// once finds the values of the length-delimited fields nums (at most
// three) in message b, nil for an absent one; false when one comes twice (the whole decode would
// merge them) or with another wire type, or b is malformed.
func once(b []byte, nums ...int32) ([3][]byte, bool) {
	var found [3][]byte
	w := wire{b: b}
	ok := true
	w.each(func(num int32, typ int) {
		for i, want := range nums {
			if num != want {
				continue
			}
			if typ != 2 || found[i] != nil {
				ok = false
				w.fail(errWireMalformed)
				return
			}
			found[i] = w.raw()
			if found[i] == nil {
				found[i] = []byte{} // present but empty: still once
			}
			return
		}
		w.skip(typ)
	})
	return found, ok && w.err == nil
}

// unmarshalWithout decodes message b but for its field num (every
// occurrence) into m: the runs of fields between them one after the other,
// which is the whole decode, as decoding a message's parts in turn merges
// them as its generated code merges the message's fields. False when b is
// malformed or m refuses a run.
func unmarshalWithout(b []byte, num int32, m unmarshaler) bool {
	w := wire{b: b}
	run := 0 // b[run:start] is still to be decoded
	for {
		start := w.i
		n, typ, more := w.next()
		if !more {
			break
		}
		w.skip(typ)
		if n != num {
			continue
		}
		if start > run && m.Unmarshal(b[run:start]) != nil {
			return false
		}
		run = w.i
	}
	if w.err != nil {
		return false
	}
	return run == len(b) || m.Unmarshal(b[run:]) == nil
}
