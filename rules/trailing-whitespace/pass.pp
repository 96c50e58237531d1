$a = 1
$b = "text that ends with spaces  "
# a comment that ends with spaces  
