package train

// logistic trains a logistic model on xs, whose i-th row has the label
// labels[i] (0 or 1) and counts weights[i] in the loss, by full-batch
// gradient descent over epochs with a learning rate and a little L2, and
// returns its weights and bias. Each product is rounded by a conversion
// (which Go never fuses into a multiply-add), and the rows are read in
// their order, so every machine trains the same figures.
func logistic(xs [][]float64, labels, weights []float64, epochs int, rate, l2 float64) ([]float64, float64) {
	dims := 0
	if len(xs) > 0 {
		dims = len(xs[0])
	}
	w, bias := make([]float64, dims), 0.0
	grad := make([]float64, dims)
	for range epochs {
		clear(grad)
		gradBias := 0.0
		for i, x := range xs {
			z := bias
			for j := range x {
				z += float64(w[j] * x[j])
			}
			g := float64((sigmoid(z) - labels[i]) * weights[i])
			for j := range x {
				grad[j] += float64(g * x[j])
			}
			gradBias += g
		}
		for j := range w {
			w[j] -= float64(rate * (grad[j] + float64(l2*w[j])))
		}
		bias -= rate * gradBias
	}
	return w, bias
}
