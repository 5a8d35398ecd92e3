// Included by racy_include.comp.
void copy_neighbour(uint i) {
    data[i] = data[i + 1];
}
