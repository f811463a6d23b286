package objects

import (
	"errors"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
)

// Dynamic is a clientset that also reaches custom resources (Argo's
// Rollouts): a live connection's client is one (kube/connect), and so is
// the embedded API's (kube/memapi).
type Dynamic interface {
	kubernetes.Interface
	Dynamic() dynamic.Interface
}

// ErrNoCustomResources says that a connection serves no custom resources.
var ErrNoCustomResources = errors.New("this cluster connection serves no custom resources")

// DynamicOf is c's client for custom resources.
func DynamicOf(c kubernetes.Interface) (dynamic.Interface, error) {
	if d, ok := c.(Dynamic); ok && d.Dynamic() != nil {
		return d.Dynamic(), nil
	}
	return nil, ErrNoCustomResources
}

// WithDynamic is c that also reaches custom resources through d.
func WithDynamic(c kubernetes.Interface, d dynamic.Interface) Dynamic {
	return withDynamic{Interface: c, dynamic: d}
}

type withDynamic struct {
	kubernetes.Interface
	dynamic dynamic.Interface
}

func (w withDynamic) Dynamic() dynamic.Interface { return w.dynamic }
