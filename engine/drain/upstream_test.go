package drain

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"rollscope/model/upstreamcases"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// kubectlPod builds the pods TestDrain uses, all default/bar.
func kubectlPod(kind string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "bar"}}
	yes := true
	owner := func(apiVersion, k, name string) {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: apiVersion, Kind: k, Name: name, Controller: &yes}}
	}
	emptyDir := func() {
		p.Spec.Volumes = []corev1.Volume{{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
	}
	switch kind {
	case "rcPod":
		owner("v1", "ReplicationController", "rc")
	case "rsPod":
		owner("apps/v1", "ReplicaSet", "rs")
	case "dsPod":
		owner("apps/v1", "DaemonSet", "ds")
	case "dsTerminatedPod":
		owner("apps/v1", "DaemonSet", "ds")
		p.Status.Phase = corev1.PodSucceeded
	case "dsPodWithEmptyDir":
		owner("apps/v1", "DaemonSet", "ds")
		emptyDir()
	case "orphanedDsPod", "nakedPod":
	case "jobPod":
		owner("batch/v1", "Job", "job")
		emptyDir()
	case "terminatedJobPodWithLocalStorage":
		owner("batch/v1", "Job", "job")
		emptyDir()
		p.Status.Phase = corev1.PodSucceeded
	case "emptydirPod":
		emptyDir()
	case "emptydirTerminatedPod":
		emptyDir()
		p.Status.Phase = corev1.PodFailed
	default:
		return nil
	}
	return p
}

func optionsFromArgs(t *testing.T, args []string) Options {
	var o Options
	for _, a := range args[1:] {
		switch a {
		case "--force":
			o.Force = true
		case "--ignore-daemonsets":
			o.IgnoreDaemonSets = true
		case "--delete-emptydir-data=true", "--delete-emptydir-data":
			o.DeleteEmptyDirData = true
		default:
			t.Fatalf("flag %q is not mapped", a)
		}
	}
	return o
}

func TestUpstreamKubectlDrainCases(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "kubectl_drain") {
		t.Run(c.ID+" "+c.Source.Case, func(t *testing.T) {
			var in struct {
				Pod  *string  `json:"pod"`
				Args []string `json:"args"`
			}
			var want struct {
				Fatal               bool    `json:"fatal"`
				PodDeletedOrEvicted bool    `json:"podDeletedOrEvicted"`
				WarningContains     *string `json:"warningContains"`
			}
			if err := json.Unmarshal(c.Input, &in); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(c.Expected, &want); err != nil {
				t.Fatal(err)
			}
			var pods []*corev1.Pod
			if in.Pod != nil {
				p := kubectlPod(*in.Pod)
				if p == nil {
					t.Fatalf("pod %q is not mapped", *in.Pod)
				}
				pods = append(pods, p)
			}
			dsExists := func(_, name string) error {
				if name == "ds" {
					return nil
				}
				return apierrors.NewNotFound(schema.GroupResource{Group: "apps", Resource: "daemonsets"}, name)
			}
			plan := Filter(pods, optionsFromArgs(t, in.Args), dsExists, now)
			if got := plan.Err() != nil; got != want.Fatal {
				t.Errorf("refused = %v (%v), want %v", got, plan.Err(), want.Fatal)
			}
			// kubectl evicts nothing when it refuses a node.
			evicted := len(plan.Evict) > 0 && plan.Err() == nil
			if evicted != want.PodDeletedOrEvicted {
				t.Errorf("evicted = %v, want %v", evicted, want.PodDeletedOrEvicted)
			}
			if want.WarningContains != nil {
				if line := "Warning: " + plan.WarningText(); !strings.Contains(line, *want.WarningContains) {
					t.Errorf("warning %q does not contain %q", line, *want.WarningContains)
				}
			}
		})
	}
}

func TestUpstreamSkipDeletedCases(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "kubectl_drain_skip_deleted") {
		var in struct {
			Age  *int `json:"deletionTimestampAgeSeconds"`
			Skip int  `json:"skipWaitForDeleteTimeoutSeconds"`
		}
		var want struct {
			Delete bool `json:"delete"`
		}
		if err := json.Unmarshal(c.Input, &in); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(c.Expected, &want); err != nil {
			t.Fatal(err)
		}
		var at *metav1.Time
		if in.Age != nil {
			at = &metav1.Time{Time: now.Add(-time.Duration(*in.Age) * time.Second)}
		}
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "p", DeletionTimestamp: at}}
		yes := true
		pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", Controller: &yes}}
		plan := Filter([]*corev1.Pod{pod}, Options{SkipWaitForDeleteTimeoutSeconds: in.Skip}, nil, now)
		if got := len(plan.Evict) == 1; got != want.Delete {
			t.Errorf("%s: delete = %v, want %v", c.ID, got, want.Delete)
		}
	}
}

func TestOptionsRoundTripAndRejectBadValues(t *testing.T) {
	grace := int64(30)
	o := Options{GracePeriodSeconds: &grace, Timeout: Duration(90 * time.Second), Force: true, IgnoreDaemonSets: true}
	got, err := ParseOptions(o.encode())
	if err != nil || *got.GracePeriodSeconds != 30 || got.Timeout != o.Timeout || !got.Force || !got.IgnoreDaemonSets {
		t.Fatalf("round trip = %+v, %v", got, err)
	}
	for _, bad := range []string{`{"timeout":"-5s"}`, `{"timeout":"soon"}`, `{"gracePeriodSeconds":-7}`, `not json`} {
		if _, err := ParseOptions(bad); err == nil {
			t.Errorf("ParseOptions(%s) accepted", bad)
		}
	}
}
