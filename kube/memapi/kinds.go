package memapi

import (
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"

	workload "rollscope/model/kind"
)

// kind describes one served resource and which of the API server's per-kind
// rules apply to it.
type kind struct {
	gvr        schema.GroupVersionResource
	gvk        schema.GroupVersionKind
	namespaced bool
	// status: the kind has a status subresource, so a normal update keeps
	// the stored status and a status write takes nothing but the status.
	status bool
	// generation: metadata.generation starts at 1 and counts spec changes.
	generation bool
	// scale: the kind serves the autoscaling/v1 scale subresource.
	scale bool
	// createOnUpdate: an update of a missing object creates it, as upstream
	// does for events and endpoints.
	createOnUpdate bool
	shortNames     []string
	// name validates metadata.name (and generateName prefixes).
	name apivalidation.ValidateNameFunc
	// fields lists the field selector labels the kind supports beyond
	// metadata.name and metadata.namespace.
	fields []string
	// objType is the Go type of the kind's objects.
	objType reflect.Type
	// custom: a custom resource's kind, its objects stored unstructured
	// (custom.go).
	custom bool
}

func (k *kind) groupResource() schema.GroupResource { return k.gvr.GroupResource() }
func (k *kind) groupKind() schema.GroupKind         { return k.gvk.GroupKind() }

// newObject returns an empty object of the kind.
func (k *kind) newObject() runtime.Object {
	if k.custom {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(k.gvk)
		return u
	}
	obj, err := scheme.Scheme.New(k.gvk)
	if err != nil {
		// Every kind in servedKinds is registered in client-go's scheme;
		// TestServedKindsAreRegistered keeps it that way.
		return nil
	}
	return obj
}

// newList returns an empty list object of the kind.
func (k *kind) newList() runtime.Object {
	if k.custom {
		l := &unstructured.UnstructuredList{}
		l.SetGroupVersionKind(k.gvk.GroupVersion().WithKind(k.gvk.Kind + "List"))
		return l
	}
	obj, err := scheme.Scheme.New(k.gvk.GroupVersion().WithKind(k.gvk.Kind + "List"))
	if err != nil {
		return nil
	}
	return obj
}

var (
	podFields   = []string{"spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName"}
	eventFields = []string{"involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"}
)

// servedKinds is every resource the embedded API server answers for.
func servedKinds() []*kind {
	core := func(resource, kindName string) *kind {
		return &kind{gvr: corev1.SchemeGroupVersion.WithResource(resource), gvk: corev1.SchemeGroupVersion.WithKind(kindName), namespaced: true, name: apivalidation.NameIsDNSSubdomain}
	}
	apps := func(resource, kindName string) *kind {
		return &kind{gvr: appsv1.SchemeGroupVersion.WithResource(resource), gvk: appsv1.SchemeGroupVersion.WithKind(kindName), namespaced: true, name: apivalidation.NameIsDNSSubdomain}
	}

	pods := core("pods", "Pod")
	pods.status, pods.shortNames, pods.fields = true, []string{"po"}, podFields

	nodes := core("nodes", "Node")
	nodes.namespaced, nodes.status, nodes.shortNames, nodes.fields = false, true, []string{"no"}, []string{"spec.unschedulable"}

	namespaces := core("namespaces", "Namespace")
	namespaces.namespaced, namespaces.status, namespaces.shortNames = false, true, []string{"ns"}
	namespaces.name, namespaces.fields = apivalidation.NameIsDNSLabel, []string{"status.phase"}

	events := core("events", "Event")
	events.createOnUpdate, events.shortNames, events.fields = true, []string{"ev"}, eventFields
	events.name = path.ValidatePathSegmentName

	configMaps := core("configmaps", "ConfigMap")
	configMaps.shortNames = []string{"cm"}

	secrets := core("secrets", "Secret")
	secrets.fields = []string{"type"}

	services := core("services", "Service")
	services.status, services.shortNames, services.name = true, []string{"svc"}, apivalidation.NameIsDNS1035Label

	serviceAccounts := core("serviceaccounts", "ServiceAccount")
	serviceAccounts.shortNames = []string{"sa"}

	endpoints := core("endpoints", "Endpoints")
	endpoints.createOnUpdate, endpoints.shortNames = true, []string{"ep"}

	rcs := core("replicationcontrollers", "ReplicationController")
	rcs.status, rcs.generation, rcs.scale, rcs.fields = true, true, true, []string{"status.replicas"}

	podTemplates := core("podtemplates", "PodTemplate")

	deployments := apps("deployments", "Deployment")
	deployments.status, deployments.generation, deployments.scale = true, true, true

	replicaSets := apps("replicasets", "ReplicaSet")
	replicaSets.status, replicaSets.generation, replicaSets.scale, replicaSets.shortNames, replicaSets.fields = true, true, true, []string{"rs"}, []string{"status.replicas"}

	daemonSets := apps("daemonsets", "DaemonSet")
	daemonSets.status, daemonSets.generation = true, true

	statefulSets := apps("statefulsets", "StatefulSet")
	statefulSets.status, statefulSets.generation = true, true

	revisions := apps("controllerrevisions", "ControllerRevision")

	pdbs := &kind{
		gvr: policyv1.SchemeGroupVersion.WithResource("poddisruptionbudgets"), gvk: policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget"),
		namespaced: true, status: true, generation: true, shortNames: []string{"pdb"}, name: apivalidation.NameIsDNSSubdomain,
	}

	kinds := []*kind{
		pods, nodes, namespaces, events, configMaps, secrets, services, serviceAccounts, endpoints, rcs, podTemplates,
		deployments, replicaSets, daemonSets, statefulSets, revisions, pdbs,
	}
	kinds = append(kinds, customKinds()...)
	for _, k := range kinds {
		k.objType = reflect.TypeOf(k.newObject())
		// A workload kind's short name is the registry's, as the real
		// API server reports it.
		if e, ok := workload.ForResource(k.groupResource()); ok {
			k.shortNames = []string{e.Short}
		}
	}
	return kinds
}
