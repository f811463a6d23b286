package nodegroup

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// DefaultKubeletVersion is reported by nodes whose spec is not a version: the
// Kubernetes version rollscope is built against.
const DefaultKubeletVersion = "v1.36.3"

// Node condition reasons and messages, as the kubelet posts them.
const (
	reasonNotReady  = "KubeletNotReady"
	messageNotReady = "container runtime status check may not have completed yet"
	reasonReady     = "KubeletReady"
	messageReady    = "kubelet is posting ready status"
)

var versionLike = regexp.MustCompile(`^v?[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]*)?$`)

// kubeletVersion is the spec itself when it looks like a Kubernetes version.
func kubeletVersion(spec string) string {
	if !versionLike.MatchString(spec) {
		return DefaultKubeletVersion
	}
	return "v" + strings.TrimPrefix(spec, "v")
}

// roleLabel is the node-role label of a group's nodes.
func roleLabel(role string) string {
	switch role {
	case RoleMaster, RoleControlPlane:
		return "node-role.kubernetes.io/control-plane"
	case RoleAPIServer:
		return "node-role.kubernetes.io/api-server"
	default:
		return "node-role.kubernetes.io/node"
	}
}

// capacity is the group's node capacity with the defaults filled in.
func capacity(g *Group) corev1.ResourceList {
	out := corev1.ResourceList{
		corev1.ResourcePods:   resource.MustParse("110"),
		corev1.ResourceCPU:    resource.MustParse("4"),
		corev1.ResourceMemory: resource.MustParse("16Gi"),
	}
	for k, v := range g.Capacity {
		out[k] = v.DeepCopy()
	}
	return out
}

// internalIP is stable for a group position and node index, so that runs are
// reproducible: 10.<group+1>.<index/254>.<index%254+1>.
func internalIP(groupPos, index int) string {
	return fmt.Sprintf("10.%d.%d.%d", (groupPos+1)%256, (index/254)%256, index%254+1)
}

func nodeName(group string, index int) string { return fmt.Sprintf("%s-%d", group, index) }

// notReadyTaint keeps pods off a node until it is Ready, as the API server's
// admission and the node lifecycle controller arrange for real nodes.
var notReadyTaint = corev1.Taint{Key: corev1.TaintNodeNotReady, Effect: corev1.TaintEffectNoSchedule}

// newNode is the Node object a group's instance registers, booting since now.
func newNode(g *Group, groupPos, index int, spec string, now time.Time) *corev1.Node {
	name := nodeName(g.Name, index)
	labels := map[string]string{
		corev1.LabelHostname:   name,
		corev1.LabelOSStable:   "linux",
		corev1.LabelArchStable: "amd64",
		roleLabel(g.Role):      "",
		model.NodeGroupLabel:   g.Name,
	}
	for k, v := range g.Labels {
		labels[k] = v
	}
	taints := append([]corev1.Taint(nil), g.Taints...)
	booting := g.BootTime > 0
	if booting {
		taints = append(taints, notReadyTaint)
	}
	annotations := map[string]string{model.NodeSpecAnnotation: spec}
	if spec != g.Spec {
		// As kops marks a node its group has moved past.
		annotations[model.NeedsUpdateAnnotation] = ""
	}
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Labels:      labels,
			Annotations: annotations,
		},
		Spec: corev1.NodeSpec{Taints: taints},
	}
	n.Status = nodeStatus(g, n, groupPos, index, spec, now, !booting)
	return n
}

// nodeStatus is the status a node's kubelet posts when it registers.
func nodeStatus(g *Group, n *corev1.Node, groupPos, index int, spec string, since time.Time, ready bool) corev1.NodeStatus {
	at := metav1.NewTime(since)
	cond := func(t corev1.NodeConditionType, reason, message string) corev1.NodeCondition {
		return corev1.NodeCondition{Type: t, Status: corev1.ConditionFalse, Reason: reason, Message: message,
			LastHeartbeatTime: at, LastTransitionTime: at}
	}
	readyCond := cond(corev1.NodeReady, reasonNotReady, messageNotReady)
	if ready {
		readyCond.Status, readyCond.Reason, readyCond.Message = corev1.ConditionTrue, reasonReady, messageReady
	}
	osImage := spec
	if osImage == "" {
		osImage = "rollscope simulated node"
	}
	ip := internalIP(groupPos, index)
	var daemon corev1.NodeDaemonEndpoints
	if g.Kubelet != nil {
		ip = g.Kubelet.IP
		daemon.KubeletEndpoint.Port = g.Kubelet.Port
	}
	return corev1.NodeStatus{
		DaemonEndpoints: daemon,
		Capacity:        capacity(g),
		Allocatable:     capacity(g),
		Conditions: []corev1.NodeCondition{
			cond(corev1.NodeMemoryPressure, "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
			cond(corev1.NodeDiskPressure, "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
			cond(corev1.NodePIDPressure, "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
			readyCond,
		},
		Addresses: []corev1.NodeAddress{
			{Type: corev1.NodeInternalIP, Address: ip},
			{Type: corev1.NodeHostName, Address: n.Name},
		},
		NodeInfo: corev1.NodeSystemInfo{
			KubeletVersion:          kubeletVersion(spec),
			OperatingSystem:         "linux",
			Architecture:            "amd64",
			OSImage:                 osImage,
			ContainerRuntimeVersion: "containerd://simulated",
		},
	}
}

func readyCondition(n *corev1.Node) *corev1.NodeCondition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == corev1.NodeReady {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}

func hasNotReadyTaint(n *corev1.Node) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == notReadyTaint.Key && t.Effect == notReadyTaint.Effect {
			return true
		}
	}
	return false
}

// nodeIndex is the index in a group's node name, or -1.
func nodeIndex(group, name string) int {
	rest, ok := strings.CutPrefix(name, group+"-")
	if !ok || rest == "" {
		return -1
	}
	n := 0
	for _, r := range rest {
		if r < '0' || r > '9' || n > 1<<24 {
			return -1
		}
		n = n*10 + int(r-'0')
	}
	return n
}
