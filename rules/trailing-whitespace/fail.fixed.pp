$a = 1
#     ^ warning[trailing-whitespace]: trailing whitespace found
$b = 2

# <- warning[trailing-whitespace]: trailing whitespace found
