$greeting = "hello ${name} and ${$other}"
