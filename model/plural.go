package model

import "fmt"

// Plural is "1 pod", "3 pods".
func Plural[N ~int | ~int32](n N, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
