// The program of a part's link check (framework/CMakeLists.txt): it links
// every object of one part with only the parts framework/layers.txt names.
int main() { return 0; }
