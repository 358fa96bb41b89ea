// Upstream ops only: no maxgraph op, so nothing loads the maxgraph dialect
// before a pass runs.
func.func @f(%a: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    func.call @g() : () -> ()
  }
  return %0 : tensor<4xf32>
}
func.func private @g()
