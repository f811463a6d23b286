package memapi

import (
	"context"
	"fmt"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	appsv1client "k8s.io/client-go/kubernetes/typed/apps/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	clienttesting "k8s.io/client-go/testing"
)

// directClient is the cluster's kubernetes.Interface. The fake clientset's
// typed clients route every call through Fake.Invokes, which deep-copies the
// request twice, records it for ever and takes a global lock; that is most of
// the cost of a simulated 10,000-pod rollout. The writes the controllers make
// most often (pods, events, ReplicaSets, Deployments) are therefore served
// here directly: the same action, the same reactor, one copy of the request.
// Every other call goes through the fake as before.
//
// The typed clients are built once per namespace and kept (the fake's are
// stateless): the controllers ask for `CoreV1().Pods(ns)` before every call,
// and building the fake's wrappers each time was a twentieth of all the
// allocations of a 10,000-pod rollout.
type directClient struct {
	*clientset
	core *directCore // pointers: handing them out as interfaces allocates nothing
	apps *directApps
	// dynamic reaches the custom resources (custom.go).
	dynamic dynamic.Interface
}

var _ kubernetes.Interface = directClient{}

func newDirectClient(cs *clientset, c *Cluster) directClient {
	core, apps := cs.CoreV1(), cs.AppsV1()
	return directClient{
		clientset: cs,
		dynamic:   c.dynamic,
		core: &directCore{CoreV1Interface: core,
			pods: newPerNamespace(func(ns string) corev1client.PodInterface {
				return directPods{core.Pods(ns), c, ns}
			}),
			events: newPerNamespace(func(ns string) corev1client.EventInterface {
				return directEvents{core.Events(ns), c, ns}
			}),
		},
		apps: &directApps{AppsV1Interface: apps,
			replicaSets: newPerNamespace(func(ns string) appsv1client.ReplicaSetInterface {
				return directReplicaSets{apps.ReplicaSets(ns), c, ns}
			}),
			deployments: newPerNamespace(func(ns string) appsv1client.DeploymentInterface {
				return directDeployments{apps.Deployments(ns), c, ns}
			}),
		},
	}
}

func (d directClient) CoreV1() corev1client.CoreV1Interface { return d.core }

func (d directClient) AppsV1() appsv1client.AppsV1Interface { return d.apps }

// perNamespace keeps one typed client per namespace; any goroutine may ask.
type perNamespace[T any] struct {
	m     *sync.Map // namespace → T
	build func(ns string) T
}

func newPerNamespace[T any](build func(ns string) T) perNamespace[T] {
	return perNamespace[T]{m: &sync.Map{}, build: build}
}

func (p perNamespace[T]) get(ns string) T {
	if v, ok := p.m.Load(ns); ok {
		return v.(T)
	}
	v, _ := p.m.LoadOrStore(ns, p.build(ns))
	return v.(T)
}

type directCore struct {
	corev1client.CoreV1Interface
	pods   perNamespace[corev1client.PodInterface]
	events perNamespace[corev1client.EventInterface]
}

func (d *directCore) Pods(ns string) corev1client.PodInterface { return d.pods.get(ns) }

func (d *directCore) Events(ns string) corev1client.EventInterface { return d.events.get(ns) }

type directApps struct {
	appsv1client.AppsV1Interface
	replicaSets perNamespace[appsv1client.ReplicaSetInterface]
	deployments perNamespace[appsv1client.DeploymentInterface]
}

func (d *directApps) ReplicaSets(ns string) appsv1client.ReplicaSetInterface {
	return d.replicaSets.get(ns)
}

func (d *directApps) Deployments(ns string) appsv1client.DeploymentInterface {
	return d.deployments.get(ns)
}

var (
	podsResource        = corev1.SchemeGroupVersion.WithResource("pods")
	eventsResource      = corev1.SchemeGroupVersion.WithResource("events")
	replicaSetsResource = appsv1.SchemeGroupVersion.WithResource("replicasets")
	deploymentsResource = appsv1.SchemeGroupVersion.WithResource("deployments")
)

// invoke serves one action as the fake would have, and types the answer.
func invoke[T runtime.Object](c *Cluster, action clienttesting.Action) (T, error) {
	var zero T
	_, obj, err := c.react(action)
	if err != nil {
		return zero, err
	}
	if obj == nil {
		return zero, nil
	}
	out, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("the embedded API server answered %s %s with a %T", action.GetVerb(), action.GetResource().Resource, obj)
	}
	return out, nil
}

type directPods struct {
	corev1client.PodInterface
	c  *Cluster
	ns string
}

func (p directPods) Create(_ context.Context, pod *corev1.Pod, o metav1.CreateOptions) (*corev1.Pod, error) {
	return invoke[*corev1.Pod](p.c, clienttesting.NewCreateActionWithOptions(podsResource, p.ns, pod.DeepCopy(), o))
}

// CreateOwned is Create for a caller that gives up pod and reads only the
// name it was given (control.PodCreator): the pod itself is stored, and no
// copy answers.
func (p directPods) CreateOwned(_ context.Context, pod *corev1.Pod, o metav1.CreateOptions) (string, error) {
	if err := p.c.reactDiscarding(clienttesting.NewCreateActionWithOptions(podsResource, p.ns, pod, o)); err != nil {
		return "", err
	}
	// pod is the stored object now; its name is never changed again.
	return pod.Name, nil
}

func (p directPods) Update(_ context.Context, pod *corev1.Pod, o metav1.UpdateOptions) (*corev1.Pod, error) {
	return invoke[*corev1.Pod](p.c, clienttesting.NewUpdateActionWithOptions(podsResource, p.ns, pod.DeepCopy(), o))
}

// UpdateStatus sends only what a status write reads: the pod's identity,
// its resourceVersion precondition and a copy of its status. The stored spec
// and metadata are kept, as on a real server, so copying the whole pod (the
// kubelet's most frequent write) would only make garbage.
func (p directPods) UpdateStatus(_ context.Context, pod *corev1.Pod, o metav1.UpdateOptions) (*corev1.Pod, error) {
	req := &corev1.Pod{ObjectMeta: statusIdentity(&pod.ObjectMeta), Status: *pod.Status.DeepCopy()}
	return invoke[*corev1.Pod](p.c, clienttesting.NewUpdateSubresourceActionWithOptions(podsResource, "status", p.ns, req, o))
}

// WriteStatus is UpdateStatus for a caller that does not read the answer
// (control.PodStatusWriter): the same write, without a copy of the stored
// pod to answer it, and without a copy of the status the caller gave up.
// It is the kubelet's most frequent write, so the request is not built as a
// new pod and a client action (together a third of the bytes a 10,000-pod
// rollout allocated): the identity and status are carried in the cluster's
// one request pod, which the write copies from and clears after.
func (p directPods) WriteStatus(_ context.Context, pod *corev1.Pod, status *corev1.PodStatus, o metav1.UpdateOptions) error {
	c := p.c
	c.countCall()
	if err := checkDryRun("UpdateOptions", o.DryRun); err != nil {
		return err
	}
	_, err := c.serveLocked("update", podsResource.Resource, true, func() (runtime.Object, error) {
		req := &c.statusRequest
		*req = corev1.Pod{ObjectMeta: statusIdentity(&pod.ObjectMeta), Status: *status}
		defer func() { *req = corev1.Pod{} }() // hold on to nothing of the caller's
		return c.update(c.tables[podsResource], p.ns, req, "status", o)
	})
	return err
}

// statusIdentity is the part of an object's metadata a status write reads.
func statusIdentity(m *metav1.ObjectMeta) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion}
}

func (p directPods) Delete(_ context.Context, name string, o metav1.DeleteOptions) error {
	_, _, err := p.c.react(clienttesting.NewDeleteActionWithOptions(podsResource, p.ns, name, o))
	return err
}

// Bind sends the caller's Binding itself: binding only reads it, and keeps
// nothing of it (the scheduler binds every pod it places).
func (p directPods) Bind(_ context.Context, b *corev1.Binding, o metav1.CreateOptions) error {
	_, _, err := p.c.react(clienttesting.NewCreateSubresourceActionWithOptions(podsResource, b.Name, "binding", p.ns, b, o))
	return err
}

type directEvents struct {
	corev1client.EventInterface
	c  *Cluster
	ns string
}

func (e directEvents) Create(_ context.Context, ev *corev1.Event, o metav1.CreateOptions) (*corev1.Event, error) {
	return invoke[*corev1.Event](e.c, clienttesting.NewCreateActionWithOptions(eventsResource, e.ns, ev.DeepCopy(), o))
}

// CreateOwned is Create for a caller that gives up ev and does not read the
// answer (control.EventCreator): after it returns, ev is the stored event.
func (e directEvents) CreateOwned(_ context.Context, ev *corev1.Event, o metav1.CreateOptions) error {
	return e.c.reactDiscarding(clienttesting.NewCreateActionWithOptions(eventsResource, e.ns, ev, o))
}

type directReplicaSets struct {
	appsv1client.ReplicaSetInterface
	c  *Cluster
	ns string
}

func (r directReplicaSets) Update(_ context.Context, rs *appsv1.ReplicaSet, o metav1.UpdateOptions) (*appsv1.ReplicaSet, error) {
	return invoke[*appsv1.ReplicaSet](r.c, clienttesting.NewUpdateActionWithOptions(replicaSetsResource, r.ns, rs.DeepCopy(), o))
}

func (r directReplicaSets) UpdateStatus(_ context.Context, rs *appsv1.ReplicaSet, o metav1.UpdateOptions) (*appsv1.ReplicaSet, error) {
	return invoke[*appsv1.ReplicaSet](r.c, clienttesting.NewUpdateSubresourceActionWithOptions(replicaSetsResource, "status", r.ns, rs.DeepCopy(), o))
}

type directDeployments struct {
	appsv1client.DeploymentInterface
	c  *Cluster
	ns string
}

func (d directDeployments) UpdateStatus(_ context.Context, dep *appsv1.Deployment, o metav1.UpdateOptions) (*appsv1.Deployment, error) {
	return invoke[*appsv1.Deployment](d.c, clienttesting.NewUpdateSubresourceActionWithOptions(deploymentsResource, "status", d.ns, dep.DeepCopy(), o))
}
