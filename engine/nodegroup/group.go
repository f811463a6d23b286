package nodegroup

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Roles of a group, as kops names them.
const (
	RoleNode         = "Node"
	RoleMaster       = "Master"
	RoleControlPlane = "ControlPlane"
	RoleAPIServer    = "APIServer"
	RoleBastion      = "Bastion"
)

// Group is a kops-style instance group.
type Group struct {
	Name string
	Role string // one of the Role constants; "" means RoleNode
	Size int
	// Capacity is the node's status capacity and allocatable: pods, cpu, memory.
	Capacity corev1.ResourceList
	// Spec is the group's current machine spec (image, version, ...). Nodes
	// created from now on carry it.
	Spec string
	// InitialSpec, when set, is the spec of the nodes that exist at the start,
	// which makes them outdated until they are replaced.
	InitialSpec string
	// MaxSurge and MaxUnavailable for node rolls (kops semantics).
	MaxSurge, MaxUnavailable *intstr.IntOrString
	// BootTime is how long a new node stays NotReady after it appears.
	BootTime time.Duration
	// LaunchDelay, when positive, is how long this group's cloud takes to
	// bring a replacement for a terminated node, instead of the
	// controller's LaunchDelay: instance types and clouds differ, and hollow
	// nodes on a real control plane want seconds, not the default.
	LaunchDelay time.Duration
	// Taints put on every node of the group at creation.
	Taints []corev1.Taint
	// Labels put on every node of the group at creation.
	Labels map[string]string
	// Kubelet, when set, is where the group's kubelet answers the API
	// server (hollow nodes serving logs): the nodes advertise it as their
	// InternalIP and daemonEndpoints, which pods/log dials.
	Kubelet *Endpoint
}

// Endpoint is a kubelet's address and port.
type Endpoint struct {
	IP   string
	Port int32
}
