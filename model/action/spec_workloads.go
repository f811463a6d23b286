package action

import (
	"fmt"
	"strconv"

	"rollscope/model/kind"
)

// StatefulSet and DaemonSet rollouts: kubectl's commands for these kinds,
// each with the kind's own permissions. Their keys answer in the kind's view.
const (
	StatefulSetSetImage  Name = "sts-set-image"
	StatefulSetSetEnv    Name = "sts-set-env"
	StatefulSetRestart   Name = "sts-restart"
	StatefulSetUndo      Name = "sts-undo"
	StatefulSetScale     Name = "sts-scale"
	StatefulSetPartition Name = "sts-partition"

	DaemonSetSetImage Name = "ds-set-image"
	DaemonSetSetEnv   Name = "ds-set-env"
	DaemonSetRestart  Name = "ds-restart"
	DaemonSetUndo     Name = "ds-undo"
)

const (
	OnStatefulSet = kind.StatefulSet
	OnDaemonSet   = kind.DaemonSet
)

// Help groups of the two views.
const (
	GroupStatefulSet = "StatefulSet"
	GroupDaemonSet   = "DaemonSet"
)

var (
	getStatefulSets   = Permission{Verb: "get", Group: "apps", Resource: "statefulsets"}
	patchStatefulSets = Permission{Verb: "patch", Group: "apps", Resource: "statefulsets"}
	getDaemonSets     = Permission{Verb: "get", Group: "apps", Resource: "daemonsets"}
	patchDaemonSets   = Permission{Verb: "patch", Group: "apps", Resource: "daemonsets"}
	listRevisions     = Permission{Verb: "list", Group: "apps", Resource: "controllerrevisions"}
)

var workloadSpecs = []Spec{
	{Name: StatefulSetSetImage, Keys: []string{"i"}, Help: "set image (StatefulSet view)", Group: GroupStatefulSet, On: OnStatefulSet,
		Needs: []Permission{getStatefulSets, patchStatefulSets}, Writes: true, StartsRollout: true, Forecast: true},
	{Name: StatefulSetSetEnv, Keys: []string{"e"}, Help: "set env (StatefulSet view)", Group: GroupStatefulSet, On: OnStatefulSet,
		Needs: []Permission{getStatefulSets, patchStatefulSets}, Writes: true, StartsRollout: true, Forecast: true},
	{Name: StatefulSetRestart, Keys: []string{"R"}, Help: "restart (StatefulSet view)", Group: GroupStatefulSet, On: OnStatefulSet,
		Needs: []Permission{getStatefulSets, patchStatefulSets}, Writes: true, StartsRollout: true, Forecast: true},
	{Name: StatefulSetUndo, Keys: []string{"u"}, Help: "undo to the chosen revision (StatefulSet view)", Group: GroupStatefulSet, On: OnStatefulSet,
		Needs: []Permission{getStatefulSets, listRevisions, patchStatefulSets}, Writes: true, StartsRollout: true, Forecast: true},
	{Name: StatefulSetScale, Keys: []string{"s"}, Help: "scale (StatefulSet view)", Group: GroupStatefulSet, On: OnStatefulSet,
		Needs: []Permission{patchStatefulSets}, Writes: true, Forecast: true},
	{Name: StatefulSetPartition, Keys: []string{"P"}, Help: "hold at / lower the partition (StatefulSet view)", Group: GroupStatefulSet, On: OnStatefulSet,
		Needs: []Permission{getStatefulSets, patchStatefulSets}, Writes: true, StartsRollout: true, Forecast: true},

	{Name: DaemonSetSetImage, Keys: []string{"i"}, Help: "set image (DaemonSet view)", Group: GroupDaemonSet, On: OnDaemonSet,
		Needs: []Permission{getDaemonSets, patchDaemonSets}, Writes: true, StartsRollout: true, Forecast: true},
	{Name: DaemonSetSetEnv, Keys: []string{"e"}, Help: "set env (DaemonSet view)", Group: GroupDaemonSet, On: OnDaemonSet,
		Needs: []Permission{getDaemonSets, patchDaemonSets}, Writes: true, StartsRollout: true, Forecast: true},
	{Name: DaemonSetRestart, Keys: []string{"R"}, Help: "restart (DaemonSet view)", Group: GroupDaemonSet, On: OnDaemonSet,
		Needs: []Permission{getDaemonSets, patchDaemonSets}, Writes: true, StartsRollout: true, Forecast: true},
	{Name: DaemonSetUndo, Keys: []string{"u"}, Help: "undo to the chosen revision (DaemonSet view)", Group: GroupDaemonSet, On: OnDaemonSet,
		Needs: []Permission{getDaemonSets, listRevisions, patchDaemonSets}, Writes: true, StartsRollout: true, Forecast: true},
}

// The rows join the table after the ones spec.go lists, so that the help
// overlay shows the two views' columns last.
func init() { specs = append(specs, workloadSpecs...) }

// workloadObject is kubectl's name for what a StatefulSet or DaemonSet
// request changes; false for other requests.
func workloadObject(r Request) (string, bool) {
	if on := r.Spec().On; on == OnStatefulSet || on == OnDaemonSet {
		return kind.Ref{Kind: on, Name: r.Name}.String(), true
	}
	return "", false
}

// workloadKubectl is the kubectl command for a StatefulSet or DaemonSet
// request; false for other requests.
func workloadKubectl(r Request) (string, bool) {
	o, ok := workloadObject(r)
	if !ok {
		return "", false
	}
	ns := ""
	if r.Namespace != "" {
		ns = " -n " + r.Namespace
	}
	switch r.Action {
	case StatefulSetSetImage, DaemonSetSetImage:
		return fmt.Sprintf("kubectl%s set image %s %s=%s", ns, o, r.Container, r.Image), true
	case StatefulSetSetEnv, DaemonSetSetEnv:
		return fmt.Sprintf("kubectl%s set env %s -c %s %s", ns, o, r.Container, r.Env), true
	case StatefulSetRestart, DaemonSetRestart:
		return fmt.Sprintf("kubectl%s rollout restart %s", ns, o), true
	case StatefulSetUndo, DaemonSetUndo:
		return fmt.Sprintf("kubectl%s rollout undo %s --to-revision=%d", ns, o, r.Revision), true
	case StatefulSetScale:
		return fmt.Sprintf("kubectl%s scale %s --replicas=%d", ns, o, r.Replicas), true
	case StatefulSetPartition:
		return fmt.Sprintf(`kubectl%s patch %s -p '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":%d}}}}'`, ns, o, r.Partition), true
	}
	return "", true
}

// workloadSummary names a StatefulSet or DaemonSet request in a few words;
// false for other requests.
func workloadSummary(r Request) (string, bool) {
	switch r.Action {
	case StatefulSetSetImage, DaemonSetSetImage:
		return "set image " + r.Container + "=" + r.Image, true
	case StatefulSetSetEnv, DaemonSetSetEnv:
		return "set env " + r.Container + " " + r.Env, true
	case StatefulSetRestart, DaemonSetRestart:
		return "restart", true
	case StatefulSetUndo, DaemonSetUndo:
		return "undo to revision " + strconv.FormatInt(r.Revision, 10), true
	case StatefulSetScale:
		return "scale to " + strconv.Itoa(int(r.Replicas)), true
	case StatefulSetPartition:
		return "partition at " + strconv.Itoa(int(r.Partition)), true
	}
	return "", false
}
