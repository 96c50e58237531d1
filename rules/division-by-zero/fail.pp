$workers = 0
$share = 100 / $workers
#        ^ error[division-by-zero]: Division by 0
$ratio = 1.5 / $workers
#        ^ error[division-by-zero]: The result of the / expression is Infinity
$rest = 7 % $workers
#       ^ error[division-by-zero]: Division by 0
