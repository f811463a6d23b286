package argo

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/rand"
)

// PodTemplateHash is the rollouts-pod-template-hash Argo's controller gives
// the ReplicaSet of template (utils/hash.ComputePodTemplateHash, v1.10): an
// FNV-32a of the template's JSON and the collision count, safe-encoded. It
// names the ReplicaSet (NAME-HASH) and is status.currentPodHash and
// status.stableRS. It is not a Deployment's pod-template-hash, which hashes
// the object, not its JSON.
func PodTemplateHash(template *corev1.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	b, err := json.Marshal(template)
	if err != nil {
		panic("argo: a pod template that does not encode: " + err.Error()) // a decoded template always does
	}
	h.Write(b)
	if collisionCount != nil {
		n := make([]byte, 8)
		binary.LittleEndian.PutUint32(n, uint32(*collisionCount))
		h.Write(n)
	}
	return rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
}

// argoStep is a canary step with Argo's field order, which its step hash
// depends on.
type argoStep struct {
	SetWeight      *int32           `json:"setWeight,omitempty"`
	Pause          *RolloutPause    `json:"pause,omitempty"`
	Experiment     json.RawMessage  `json:"experiment,omitempty"`
	Analysis       *RolloutAnalysis `json:"analysis,omitempty"`
	SetCanaryScale *SetCanaryScale  `json:"setCanaryScale,omitempty"`
	SetHeaderRoute json.RawMessage  `json:"setHeaderRoute,omitempty"`
	SetMirrorRoute json.RawMessage  `json:"setMirrorRoute,omitempty"`
	Plugin         json.RawMessage  `json:"plugin,omitempty"`
}

// StepHash is status.currentStepHash (utils/conditions.ComputeStepHash):
// an FNV-32a of the canary steps' JSON; "" for blue/green. A change of it
// sends the controller back to step 0. It is Argo's exactly for steps of
// setWeight, pause and setCanaryScale, the ones rollscope runs.
func StepHash(r *Rollout) string {
	c := r.Spec.Strategy.Canary
	if r.Spec.Strategy.BlueGreen != nil || c == nil {
		return ""
	}
	var steps []argoStep
	if c.Steps != nil {
		steps = make([]argoStep, len(c.Steps))
		for i, s := range c.Steps {
			steps[i] = argoStep{s.SetWeight, s.Pause, s.Experiment, s.Analysis, s.SetCanaryScale, s.SetHeaderRoute, s.SetMirrorRoute, s.Plugin}
		}
	}
	h := fnv.New32a()
	b, err := json.Marshal(steps)
	if err != nil {
		panic("argo: canary steps that do not encode: " + err.Error())
	}
	h.Write(b)
	return rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
}
