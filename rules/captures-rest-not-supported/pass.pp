define demo::thing (Array[String] $rest = []) { }
