package noderoll

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/engine/nodegroup"
)

// Settings are a group's resolved surge and unavailability for one roll.
type Settings struct {
	MaxSurge, MaxUnavailable int
}

// Resolve turns maxSurge and maxUnavailable into node counts for a group of
// numInstances nodes, as kops' resolveSettings does without a cloud
// provider: maxSurge defaults to 0 and a percentage rounds up;
// maxUnavailable defaults to 1 when nothing surges (0 otherwise) and a
// percentage rounds down but never below 1. An explicit integer 0 stays 0.
func Resolve(maxSurge, maxUnavailable *intstr.IntOrString, numInstances int) (Settings, error) {
	var s Settings
	if maxSurge != nil {
		v, err := count("maxSurge", maxSurge, numInstances, math.Ceil)
		if err != nil {
			return s, err
		}
		s.MaxSurge = v
	}
	switch {
	case maxUnavailable == nil && s.MaxSurge == 0:
		s.MaxUnavailable = 1
	case maxUnavailable != nil:
		v, err := count("maxUnavailable", maxUnavailable, numInstances, math.Floor)
		if err != nil {
			return s, err
		}
		if maxUnavailable.Type == intstr.String && v <= 0 {
			v = 1
		}
		s.MaxUnavailable = v
	}
	return s, nil
}

// count reads an integer or a percentage of n, rounded with round.
func count(name string, v *intstr.IntOrString, n int, round func(float64) float64) (int, error) {
	if v.Type == intstr.Int {
		if v.IntVal < 0 {
			return 0, fmt.Errorf("%s %d is negative (give a node count or a percentage from 0%% to 100%%)", name, v.IntVal)
		}
		return int(v.IntVal), nil
	}
	text, ok := strings.CutSuffix(v.StrVal, "%")
	p, err := strconv.Atoi(text)
	if !ok || err != nil {
		return 0, fmt.Errorf("%s %q is neither a node count nor a percentage (write 2 or 10%%)", name, v.StrVal)
	}
	if p < 0 || p > 100 {
		return 0, fmt.Errorf("%s %s is outside 0%%–100%% of the group's nodes (write at most 100%%, or a node count)", name, v.StrVal)
	}
	return int(round(float64(p) * float64(n) / 100)), nil
}

// Concurrency is how many nodes of a group roll at once and how many of
// them surge, per kops: never more surge than nodes to update, no surge for
// control-plane groups (their concurrency is maxUnavailable, at least 1),
// and one node at a time, surging at most one, when stepping.
func (s Settings) Concurrency(role string, toUpdate int, stepping bool) (surge, concurrency int) {
	surge = min(s.MaxSurge, toUpdate)
	concurrency = surge + s.MaxUnavailable
	if isControlPlane(role) && surge != 0 {
		surge = 0
		concurrency = max(s.MaxUnavailable, 1)
	}
	if stepping {
		surge = min(surge, 1)
		concurrency = 1
	}
	return surge, concurrency
}

func isControlPlane(role string) bool {
	return role == nodegroup.RoleMaster || role == nodegroup.RoleControlPlane
}
