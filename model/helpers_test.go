package model_test

import "k8s.io/apimachinery/pkg/util/intstr"

// ref returns a pointer to a copy of v.
func ref[T any](v T) *T { return &v }

// intOrInt is an integer IntOrString.
func intOrInt(n int) intstr.IntOrString { return intstr.FromInt32(int32(n)) }
