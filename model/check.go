package model

import (
	"fmt"
	"strings"

	"github.com/distribution/reference"
	"k8s.io/apimachinery/pkg/util/validation"
)

// CheckImage refuses an image reference the container runtime could not
// pull, before anything is sent: empty, malformed, or with upper-case
// letters in the repository (the same parser docker and containerd use).
// The console's set image, the RC rolling-update dialog and scenario files
// all judge an image by it.
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

// CheckEnvName refuses an environment variable name `kubectl set env`
// refuses (its parseIntoEnvVar: validation.IsEnvVarName), in kubectl's
// words: the console's set env and scenario scripts send only what kubectl
// would. The API server itself takes more ("BAD NAME"), and a name it takes
// that kubectl does not is one no kubectl user can set again.
func CheckEnvName(name string) error {
	if name == "" {
		return fmt.Errorf("the variable name is empty — give one such as LOG_LEVEL")
	}
	if errs := validation.IsEnvVarName(name); len(errs) > 0 {
		return fmt.Errorf("%q is not a valid key name: use letters, digits, '_', '-' and '.', not starting with a digit (such as LOG_LEVEL), as kubectl set env requires", name)
	}
	return nil
}

// CheckDeclaredEnvName refuses an environment variable name the API server
// would reject in an object a scenario declares (its relaxed rule:
// printable ASCII other than '=').
func CheckDeclaredEnvName(name string) error {
	if name == "" {
		return fmt.Errorf("the variable name is empty — give one such as LOG_LEVEL")
	}
	if errs := validation.IsRelaxedEnvVarName(name); len(errs) > 0 {
		return fmt.Errorf("%q is not a valid environment variable name: %s", name, strings.Join(errs, "; "))
	}
	return nil
}
