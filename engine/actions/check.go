package actions

import (
	"fmt"
	"strings"

	"github.com/distribution/reference"
	"k8s.io/apimachinery/pkg/util/validation"
)

// MaxReplicas is the most replicas an action accepts. The API allows up to
// 2^31-1, but a number this large typed in a dialog is a slip of the finger,
// and a deployment scaled to it would flood the cluster with pods.
const MaxReplicas = 100000

// CheckImage refuses an image reference the container runtime could not
// pull, before anything is sent: empty, malformed, or with upper-case
// letters in the repository (the same parser docker and containerd use).
func CheckImage(image string) error {
	if strings.TrimSpace(image) == "" {
		return fmt.Errorf("the image is empty — give a reference such as nginx:1.27")
	}
	if image != strings.TrimSpace(image) {
		return fmt.Errorf("image %q has spaces around it — remove them", image)
	}
	if _, err := reference.ParseNormalizedNamed(image); err != nil {
		return fmt.Errorf("image %q is not a valid reference (%v) — use NAME[:TAG][@DIGEST], such as nginx:1.27", image, err)
	}
	return nil
}

// CheckEnvName refuses an environment variable name the API server would
// reject.
func CheckEnvName(name string) error {
	if name == "" {
		return fmt.Errorf("the variable name is empty — give one such as LOG_LEVEL")
	}
	if errs := validation.IsRelaxedEnvVarName(name); len(errs) > 0 {
		return fmt.Errorf("%q is not a valid environment variable name: %s", name, strings.Join(errs, "; "))
	}
	return nil
}

// CheckReplicas refuses a replica count below 0 or above MaxReplicas.
func CheckReplicas(replicas int64) error {
	switch {
	case replicas < 0:
		return fmt.Errorf("replicas must be 0 or more, not %d", replicas)
	case replicas > MaxReplicas:
		return fmt.Errorf("%d replicas is more than rollscope will set (%d) — scale with kubectl if you mean it", replicas, MaxReplicas)
	}
	return nil
}
